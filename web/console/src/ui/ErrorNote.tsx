import { ApiFailure } from '../api/client.ts';
import { useServerText } from '../i18n/server-text.ts';

/**
 * A failure announced to screen readers (role=alert); nothing when there is none. An API error
 * whose code the console knows is said in the console's language, the server's own words under it
 * when they say more (a field, a limit); any other in the server's words.
 */
export function ErrorNote({ error }: { error: unknown }) {
  const { apiError } = useServerText();
  if (!error) return null;
  const said = error instanceof ApiFailure ? apiError(error) : { text: error instanceof Error ? error.message : String(error) };
  return (
    <p role="alert" className="error-note">
      {said.text}
      {said.detail && (
        <span className="error-detail" lang="en">
          {said.detail}
        </span>
      )}
    </p>
  );
}
