export const RUN_STATUSES = ['running', 'completed', 'needs_review', 'awaiting_approval', 'awaiting_input', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
