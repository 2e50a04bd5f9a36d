// The two istanbul-reports classes AMTP uses, imported by path: the package's create() requires
// them through a computed path, which a bundle cannot follow (server/src/coverage/reports.ts).
declare module 'istanbul-reports/lib/lcovonly' {
  import type { Context } from 'istanbul-lib-report';
  const LcovOnlyReport: new (opts: { file: string; projectRoot?: string }) => { execute(context: Context): void };
  export = LcovOnlyReport;
}
declare module 'istanbul-reports/lib/cobertura' {
  import type { Context } from 'istanbul-lib-report';
  const CoberturaReport: new (opts: { file: string; projectRoot?: string }) => { execute(context: Context): void };
  export = CoberturaReport;
}
