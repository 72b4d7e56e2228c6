/** Month axis labels of the statistics page: legible from one month to decades (property test). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { monthAxis, monthName } from '../../lib/stats/html.js';
import { monthRange } from '../../lib/stats/trend.js';

const PLOT = 760; // the time chart's plot width

test('month names and ranges', () => {
  assert.equal(monthName('2024-03'), 'Mar 2024');
  assert.deepEqual(monthRange('2023-11', '2024-02'), ['2023-11', '2023-12', '2024-01', '2024-02']);
  assert.deepEqual(monthRange('2024-05', '2024-05'), ['2024-05']);
  assert.deepEqual(monthAxis(['2024-05'], PLOT), [{ index: 0, lines: ['May 2024'] }]);
});

test('any span from 1 month to 40 years: labels in order, never overlapping, each year named somewhere', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2000, max: 2030 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 480 }),
      (year, month, n) => {
        const first = `${year}-${String(month).padStart(2, '0')}`;
        const last = new Date(Date.UTC(year, month - 1 + n - 1, 1)).toISOString().slice(0, 7);
        const months = monthRange(first, last);
        assert.equal(months.length, n);
        const slot = PLOT / n;
        const labels = monthAxis(months, slot);
        assert.ok(labels.length >= 1);
        const width = (l: (typeof labels)[number]) => Math.max(...l.lines.map((t) => t.length)) * 7.2;
        for (let i = 1; i < labels.length; i++) {
          const [a, b] = [labels[i - 1]!, labels[i]!];
          assert.ok(a.index < b.index);
          assert.ok(
            (b.index - a.index) * slot >= (width(a) + width(b)) / 2,
            `${a.lines} and ${b.lines} overlap at ${n} months`,
          );
        }
        if (n <= 12 * 5) {
          // Up to five years, every January is named with its year (the page states the span too).
          const named = new Set(
            labels
              .flatMap((l) => l.lines)
              .filter((t) => /^\d{4}$/.test(t) || /\d{4}$/.test(t))
              .map((t) => t.slice(-4)),
          );
          for (const m of months)
            if (m.endsWith('-01'))
              assert.ok(named.has(m.slice(0, 4)), `${m.slice(0, 4)} named (${n} months from ${first})`);
        }
      },
    ),
    { numRuns: 300 },
  );
});
