export type RunStatus = 'running' | 'completed' | 'needs_review' | 'awaiting_approval' | 'failed' | 'cancelled';
