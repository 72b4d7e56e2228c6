// Start-up: `revtrail --help` (loads yargs) and `revtrail hook` dispatch against node's own floor.
import { cli, row, timeMedian, timeOnce, root } from '../lib.mjs';

export const name = 'startup';

export async function run({ runs }) {
  const node0 = timeMedian(runs, () => timeOnce(process.execPath, ['-e', '0']));
  const help = timeMedian(runs, () => timeOnce(process.execPath, [cli, '--help'], { cwd: root }));
  return [row({ scenario: 'revtrail --help start-up', value: help, floorName: 'node -e 0', floor: node0, target: 2 })];
}
