// The part of @bcoe/v8-coverage (c8's merge of V8 process coverages) AMTP uses; the package ships no types.
declare module '@bcoe/v8-coverage' {
  interface RangeCov {
    startOffset: number;
    endOffset: number;
    count: number;
  }
  interface FunctionCov {
    functionName: string;
    isBlockCoverage: boolean;
    ranges: RangeCov[];
  }
  interface ScriptCov {
    scriptId: string;
    url: string;
    functions: FunctionCov[];
  }
  interface ProcessCov {
    result: ScriptCov[];
  }
  /** Sums the counts of several processes' coverage, script by script (the same url is one script). */
  export function mergeProcessCovs(processCovs: ReadonlyArray<ProcessCov>): ProcessCov;
}
