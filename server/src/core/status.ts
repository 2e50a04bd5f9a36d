export type RunStatus = 'running' | 'completed' | 'needs_review' | 'awaiting_approval' | 'awaiting_input' | 'failed' | 'cancelled';
