// Which handler answers which client→server message. server.ts hands it the connection; the tests
// hand it a fake one and check that every client→server message of protocol.ts is answered.
import * as P from '../protocol';
import type { AmtpService } from './service';

export function wireService(
  on: P.Receiver,
  svc: () => AmtpService,
  handle: <A, R>(fn: (a: A) => R | Promise<R>) => (a: A) => Promise<R>,
): void {
  P.onRequest(
    on,
    P.Generate,
    handle((p) => svc().generate(p)),
  );
  P.onRequest(
    on,
    P.Resume,
    handle((p) => svc().resume(p)),
  );
  P.onRequest(
    on,
    P.Cancel,
    handle((p) => svc().cancel(p)),
  );
  P.onRequest(
    on,
    P.Runs,
    handle(() => svc().runs()),
  );
  P.onRequest(
    on,
    P.Crawl,
    handle(() => svc().crawl()),
  );
  P.onRequest(
    on,
    P.Detect,
    handle(() => svc().detect()),
  );
  P.onRequest(
    on,
    P.RunTests,
    handle((p) => svc().runTests(p)),
  );
  wireEditor(on, svc, handle);
  P.onRequest(
    on,
    P.VerifyDeterminism,
    handle((p) => svc().verifyDeterminism(p)),
  );
  wireReview(on, svc, handle);
  P.onRequest(
    on,
    P.SetCredentials,
    handle((p) => svc().setCredentials(p)),
  );
  P.onNotification(on, P.SettingsChanged, (s) => svc().settingsChanged(s));
  P.onNotification(on, P.TrustChanged, (p) => svc().setTrusted(p.trusted));
}

/** What the editor reads of files: exported symbols (CodeLens, "for Selection") and the tests test files hold (the Testing view). */
function wireEditor(on: P.Receiver, svc: () => AmtpService, handle: <A, R>(fn: (a: A) => R | Promise<R>) => (a: A) => Promise<R>): void {
  P.onRequest(
    on,
    P.ExportedSymbols,
    handle((p) => svc().exportedSymbols(p)),
  );
  P.onRequest(
    on,
    P.FileTests,
    handle((p) => svc().fileTests(p)),
  );
  P.onRequest(
    on,
    P.WorkspaceTestFiles,
    handle(() => svc().workspaceTestFiles()),
  );
}

/** Per-test review from the Test Cases tree (server/src/app/review.ts) and the lessons it leaves (the Lessons view, app/lessons.ts). */
function wireReview(on: P.Receiver, svc: () => AmtpService, handle: <A, R>(fn: (a: A) => R | Promise<R>) => (a: A) => Promise<R>): void {
  P.onRequest(
    on,
    P.Review,
    handle((p) => svc().review(p)),
  );
  P.onRequest(
    on,
    P.Lessons,
    handle(() => svc().lessons()),
  );
  P.onRequest(
    on,
    P.ForgetLesson,
    handle((p) => svc().forgetLesson(p)),
  );
}
