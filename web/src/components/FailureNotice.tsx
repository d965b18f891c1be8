import { useEffect, useState } from "preact/hooks";

/** A `turn-failed` event as players receive it (src/server/retry.ts): never an address or a route. */
export interface TurnFailure {
  tick: number;
  message: string;
  reason: string;
  retryAt: number | null;
  attempt: number;
}

/**
 * A failed turn, as the table sees it: one plain sentence that counts down to
 * the next attempt ("The narrator did not answer. Trying again in 20 s."),
 * and a Retry button for whoever may press it. The cause is in the host's drawer.
 */
export function FailureNotice(props: { failure: TurnFailure; onRetry?: () => Promise<void> }) {
  const { failure } = props;
  const [now, setNow] = useState(Date.now());
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (failure.retryAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [failure.retryAt]);
  const left = failure.retryAt === null ? null : Math.ceil((failure.retryAt - now) / 1000);
  const next =
    left === null
      ? "It will not try again by itself: press Retry when you are ready."
      : left > 0
        ? `Trying again in ${left} s.`
        : "Trying again now…";
  return (
    <div class="failure" data-attempt={failure.attempt}>
      {/* Read out once per failure, not at every second of the count. */}
      <p role="status" class="visually-hidden">
        {failure.message}
      </p>
      <p aria-hidden="true">
        <strong>{failure.reason}</strong> {next}
      </p>
      {props.onRetry ? (
        <button
          type="button"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await props.onRetry!();
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? "Retrying…" : "Retry"}
        </button>
      ) : null}
    </div>
  );
}
