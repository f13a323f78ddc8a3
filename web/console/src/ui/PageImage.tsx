import { useEffect, useRef, useState } from 'react';
import { consoleFetch } from '../api/client.ts';
import { ErrorNote } from './ErrorNote.tsx';

/** Where a passage sits on its page, as fractions of the page's width and height from the top left (the API's PageBox). */
export type PageBox = { x0: number; y0: number; x1: number; y1: number };

type Props = {
  knowledgeBaseId: string;
  documentId: string;
  /** 1-based, as the API counts. */
  page: number;
  /** The document's file name, for the image's alt text ("Page 2 of zephyr-9.pdf"). */
  fileName: string;
  /** Drawn over the image: a chunk's or a citation's lines. */
  boxes?: readonly PageBox[];
  /** The alt text, in the screen's language; the default is English. */
  alt?: string;
};

/**
 * A document's page as the API renders it, with boxes drawn over it. Fetched with the console's
 * header (an <img src> could not send it) and shown from a blob: URL, released when it changes.
 */
export function PageImage({ knowledgeBaseId, documentId, page, fileName, boxes = [], alt }: Props) {
  const wanted = `${knowledgeBaseId}/${documentId}/${page}`;
  const label = alt ?? `Page ${page} of ${fileName}`;
  // The page on screen stays until the next one has arrived: emptying the figure while it loads
  // made the screen shorter for a moment, and the browser scrolled what was clicked out of view.
  const [shown, setShown] = useState<{ page: string; url: string; alt: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const current = useRef<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    consoleFetch(`/v1/knowledge-bases/${encodeURIComponent(knowledgeBaseId)}/documents/${encodeURIComponent(documentId)}/pages/${page}/image`, { signal: controller.signal })
      .then((response) => response.blob())
      .then((blob) => {
        if (controller.signal.aborted) return;
        if (current.current) URL.revokeObjectURL(current.current);
        current.current = URL.createObjectURL(blob);
        setShown({ page: wanted, url: current.current, alt: label });
      })
      .catch((failure: unknown) => controller.signal.aborted || setError(failure));
    return () => controller.abort();
    // The label follows the page: a new language alone need not fetch the image again.
  }, [knowledgeBaseId, documentId, page]);
  useEffect(
    () => () => {
      if (current.current) URL.revokeObjectURL(current.current);
    },
    [],
  );

  if (error) return <ErrorNote error={error} />;
  const ready = shown?.page === wanted;
  return (
    <figure className="page-image" aria-busy={!ready}>
      {shown && <img src={shown.url} alt={ready ? label : shown.alt} />}
      {ready &&
        boxes.map((box, i) => (
          <span
            key={i}
            className="box"
            aria-hidden="true"
            style={{ left: `${box.x0 * 100}%`, top: `${box.y0 * 100}%`, width: `${(box.x1 - box.x0) * 100}%`, height: `${(box.y1 - box.y0) * 100}%` }}
          />
        ))}
    </figure>
  );
}
