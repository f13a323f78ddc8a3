import { readConsoleBundle } from '../test/helpers/console-bundle.ts';
import { type Api, json, withKbqa } from './kbqa-api.ts';
import { lighthouseScores, type LoadedScript } from './lighthouse.ts';
import { log } from './util.ts';

const INITIAL_JS_BUDGET_GZ = 250 * 1024;
const MIN_PERFORMANCE = 90;
const MIN_ACCESSIBILITY = 95;

/** The console's cookie for the admin key: what the sign-in screen gets (docs/console-session.md). */
async function signIn(api: Api): Promise<string> {
  const res = await fetch(`${api.base}/console/session`, {
    method: 'POST',
    headers: { 'x-kbqa-console': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: api.headers.authorization!.replace(/^Bearer /, '') }),
  });
  if (res.status !== 204) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  const cookie = /(?:__Host-)?kbqa_console=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error('sign-in set no kbqa_console cookie');
  return cookie;
}

/** One screen as Lighthouse loads it: its scores, and the JavaScript the browser fetched before any interaction. */
async function screen(url: string, headers?: Record<string, string>) {
  const { scores, scripts, finalUrl } = await lighthouseScores(url, headers);
  const js = (list: LoadedScript[]) => list.reduce((sum, s) => sum + s.transferred, 0);
  return {
    url,
    final_url: finalUrl,
    initial_js_gz: js(scripts),
    scripts: scripts.map((s) => ({ file: new URL(s.url).pathname.split('/').pop(), transferred: s.transferred })),
    lighthouse: scores,
    pass: js(scripts) <= INITIAL_JS_BUDGET_GZ && scores.performance >= MIN_PERFORMANCE && scores.accessibility >= MIN_ACCESSIBILITY,
  };
}

/**
 * `npm run bench -- console`: the console (dist/console, `npm run build:console`) served by
 * `npm start`'s server. The build's weight from its files (what index.html loads statically, what
 * each screen's lazy chunk adds), then Lighthouse on the sign-in screen (`/`, signed out) and on
 * the knowledge-base list signed in (the session cookie sent with every request), over a few bases.
 */
export async function consoleBench() {
  const bundle = readConsoleBundle();
  if (!bundle) throw new Error('the console is not built: run `npm run build:console` first');
  return withKbqa('console', async (api) => {
    for (const name of ['Staff handbook', 'Product manuals', 'Support tickets', 'Engineering wiki']) {
      await json(api, 'POST', '/v1/knowledge-bases', { name, description: `${name}: benchmark fixture` });
    }
    const cookie = await signIn(api);
    log('console: sign-in screen');
    const signInScreen = await screen(`${api.base}/`);
    log('console: knowledge-base list, signed in');
    const knowledgeBases = await screen(`${api.base}/knowledge-bases`, { Cookie: cookie });
    return {
      server: 'npm start (embedded), four knowledge bases created through the API',
      build: {
        initial_js_gz: bundle.initial_js_gz,
        initial_css_gz: bundle.initial_css_gz,
        initial_chunks: bundle.initial,
        screens: bundle.screens.map((s) => ({ screen: s.module, chunk: s.chunk, gz: s.gz, added_to_initial_gz: s.added_gz })),
      },
      sign_in: signInScreen,
      knowledge_bases: knowledgeBases,
      budget: { initial_js_gz: INITIAL_JS_BUDGET_GZ, performance: MIN_PERFORMANCE, accessibility: MIN_ACCESSIBILITY },
      pass: bundle.initial_js_gz <= INITIAL_JS_BUDGET_GZ && signInScreen.pass && knowledgeBases.pass,
    };
  });
}
