import test from 'ava';
import { loadConfig } from '../../src/config.ts';

test('KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: entries are kept; unset allows nothing; a mistyped entry stops the start, naming it', (t) => {
  t.deepEqual(loadConfig({ KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: ' orders.internal, .corp.example ,10.0.0.0/8,[fd00::]/8' }).workflowHttpAllowHosts, ['orders.internal', '.corp.example', '10.0.0.0/8', '[fd00::]/8']);
  t.deepEqual(loadConfig({}).workflowHttpAllowHosts, []);
  t.throws(() => loadConfig({ KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '10.0.0.0/40' }), { message: /KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: 10\.0\.0\.0\/40 is not an address range/ });
  t.throws(() => loadConfig({ KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: 'https://orders.internal' }), { message: /KBQA_WORKFLOW_HTTP_ALLOW_HOSTS/ });
});
