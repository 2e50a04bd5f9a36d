/** The CLI's exit codes (README.md, cli/help.ts); their own file, so a command loads no more than it needs to say how it ended. */
export const EXIT = {
  ok: 0,
  usage: 2,
  needsReview: 3,
  failed: 4,
  coverageBelowTarget: 5,
  mutationBelowTarget: 6,
  /** kept tests below the confidence threshold wait for review (amtp review) */
  awaitingInput: 7,
  interrupted: 130,
} as const;
