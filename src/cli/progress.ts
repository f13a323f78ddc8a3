/** A one-line progress bar on a terminal; plain periodic lines when stderr is not a TTY (CI logs). */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  let lastPrint = 0;
  return {
    update(done: number, total: number, force = false) {
      const now = Date.now();
      if (!force && now - lastPrint < (stream.isTTY ? 100 : 2000)) return;
      lastPrint = now;
      const ratio = total > 0 ? Math.min(1, done / total) : 1;
      const width = 30;
      const filled = Math.round(ratio * width);
      const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(ratio * 100).toFixed(1)}% ${done}/${total}`;
      stream.write(stream.isTTY ? `\r${line}` : `${line}\n`);
    },
    done(message: string) {
      stream.write(`${stream.isTTY ? '\r\x1b[2K' : ''}${message}\n`);
    },
  };
}
