/** A published agent's page, as the full address a visitor would be given (the API answers the path). */
export function PublicLink({ path }: { path: string }) {
  const url = new URL(path, window.location.origin).href;
  return (
    <a href={url} target="_blank" rel="noreferrer" className="mono">
      {url}
    </a>
  );
}
