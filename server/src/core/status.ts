export const RUN_STATUSES = ['running', 'completed', 'needs_review', 'awaiting_approval', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
