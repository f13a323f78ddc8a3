import { useEffect, useState } from 'react';
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
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    setUrl(null);
    setError(null);
    consoleFetch(`/v1/knowledge-bases/${encodeURIComponent(knowledgeBaseId)}/documents/${encodeURIComponent(documentId)}/pages/${page}/image`, { signal: controller.signal })
      .then((response) => response.blob())
      .then((blob) => setUrl((objectUrl = URL.createObjectURL(blob))))
      .catch((failure: unknown) => controller.signal.aborted || setError(failure));
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [knowledgeBaseId, documentId, page]);

  if (error) return <ErrorNote error={error} />;
  return (
    <figure className="page-image" aria-busy={url === null}>
      {url && <img src={url} alt={alt ?? `Page ${page} of ${fileName}`} />}
      {url &&
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
