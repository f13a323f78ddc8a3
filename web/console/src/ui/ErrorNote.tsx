import { ApiFailure } from '../api/client.ts';

/** A failure in the API's own words, announced to screen readers (role=alert); nothing when there is none. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof ApiFailure ? error.message : error instanceof Error ? error.message : String(error);
  return (
    <p role="alert" className="error-note">
      {message}
    </p>
  );
}
