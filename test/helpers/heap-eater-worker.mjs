// A pool process's methods for test/contract/process-pool-output.contract.test.ts: one that prints
// to both streams and one that fills its heap until V8 stops the process.
import workerpool from 'workerpool';

workerpool.worker({
  speak() {
    process.stdout.write('said on stdout\n');
    process.stderr.write('said on stderr\n');
    return 'spoke';
  },
  eat() {
    const held = [];
    for (;;) held.push(new Array(100_000).fill(held.length));
  },
});
