import type { FixtureKind } from '../fixture-set.js';
import type { FutureNeedSummary } from './summary.js';

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#17becf'];
const PANEL = { width: 400, left: 60, top: 50, plotWidth: 300, plotHeight: 240 };
const TITLES: Record<FixtureKind, string> = { 'swe-agent': 'SWE-agent (Django)', 'tau-bench': 'tau-bench (airline)' };

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

type Measure = 'medianRetention' | 'pooledRetention';

/** One panel: x = budget (in the order given, largest first), y = retention; a line per strategy. */
function panel(summaries: readonly FutureNeedSummary[], title: string, measure: Measure, offsetX: number, colorOf: (strategy: string) => string): string {
  const budgets = summaries[0]?.byBudget.map((entry) => entry.budget) ?? [];
  const step = budgets.length > 1 ? PANEL.plotWidth / (budgets.length - 1) : 0;
  const x = (index: number) => offsetX + PANEL.left + (budgets.length > 1 ? index * step : PANEL.plotWidth / 2);
  const y = (share: number) => PANEL.top + (1 - Math.min(1, Math.max(0, share))) * PANEL.plotHeight;
  const parts: string[] = [
    `<text x="${offsetX + PANEL.left + PANEL.plotWidth / 2}" y="${PANEL.top - 18}" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let tick = 0; tick <= 100; tick += 25) {
    parts.push(`<line x1="${x(0)}" y1="${y(tick / 100)}" x2="${x(0) + PANEL.plotWidth}" y2="${y(tick / 100)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${x(0) - 6}" y="${y(tick / 100) + 4}" text-anchor="end" font-size="11">${tick}%</text>`);
  }
  for (const [index, budget] of budgets.entries()) {
    parts.push(`<line x1="${x(index)}" y1="${y(0)}" x2="${x(index)}" y2="${y(1)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${x(index)}" y="${y(0) + 16}" text-anchor="middle" font-size="11">${Math.round(budget * 100)}%</text>`);
  }
  parts.push(`<rect x="${x(0)}" y="${y(1)}" width="${PANEL.plotWidth}" height="${PANEL.plotHeight}" fill="none" stroke="#333"/>`);
  parts.push(`<text x="${x(0) + PANEL.plotWidth / 2}" y="${y(0) + 34}" text-anchor="middle" font-size="12">budget (% of the prefix's tokens)</text>`);
  parts.push(
    `<text transform="translate(${offsetX + 16} ${y(0.5)}) rotate(-90)" text-anchor="middle" font-size="12">future needs retained (${measure === 'medianRetention' ? 'median over cuts' : 'pooled'})</text>`,
  );
  for (const summary of summaries) {
    const color = colorOf(summary.strategy);
    const points = summary.byBudget.flatMap((entry, index) => (entry[measure] === undefined ? [] : [{ entry, cx: x(index), cy: y(entry[measure]!) }]));
    if (points.length > 1) {
      parts.push(`<polyline points="${points.map((point) => `${point.cx},${point.cy}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`);
    }
    for (const { entry, cx, cy } of points) {
      // Filled: every output at this budget fits it; hollow: some are over (retention not comparable).
      const fits = entry.underBudget === entry.cuts;
      const label = `${summary.strategy} @ ${Math.round(entry.budget * 100)}%: ${Math.round(entry[measure]! * 1000) / 10}%, ${entry.underBudget}/${entry.cuts} under budget`;
      parts.push(
        `<circle cx="${cx}" cy="${cy}" r="5" fill="${fits ? color : 'white'}" stroke="${color}" stroke-width="2"><title>${escapeXml(label)}</title></circle>`,
      );
    }
  }
  return parts.join('\n');
}

/** docs/benchmarks-future-need.svg: per dataset, the median and the pooled retention against the budget. */
export function renderFutureNeedChart(summaries: readonly FutureNeedSummary[]): string {
  const strategies = [...new Set(summaries.map((summary) => summary.strategy))];
  const colorOf = (strategy: string) => COLORS[strategies.indexOf(strategy) % COLORS.length]!;
  const kinds = [...new Set(summaries.map((summary) => summary.kind))];
  const panels: string[] = [];
  for (const [row, kind] of kinds.entries()) {
    const ofKind = summaries.filter((summary) => summary.kind === kind);
    const offsetY = row * (PANEL.top + PANEL.plotHeight + 50);
    panels.push(
      `<g transform="translate(0 ${offsetY})">`,
      panel(ofKind, `${TITLES[kind]}: median over cuts`, 'medianRetention', 0, colorOf),
      panel(ofKind, `${TITLES[kind]}: pooled`, 'pooledRetention', PANEL.width, colorOf),
      '</g>',
    );
  }
  const legendTop = Math.max(1, kinds.length) * (PANEL.top + PANEL.plotHeight + 50) + 10;
  const width = 2 * PANEL.width + 20;
  const height = legendTop + 24 + strategies.length * 20 + 10;
  const legend = strategies.map((strategy, index) => {
    const ly = legendTop + 24 + index * 20;
    // A strategy whose outputs are not all valid (LangChain drops the task) says so beside its name.
    const ofStrategy = summaries.filter((summary) => summary.strategy === strategy);
    const valid = ofStrategy.reduce((sum, summary) => sum + summary.valid, 0);
    const cases = ofStrategy.reduce((sum, summary) => sum + summary.cases, 0);
    const label = valid === cases ? strategy : `${strategy}: valid in ${valid}/${cases} (task or tool pairing lost)`;
    return `<line x1="24" y1="${ly - 4}" x2="44" y2="${ly - 4}" stroke="${colorOf(strategy)}" stroke-width="2"/><circle cx="34" cy="${ly - 4}" r="5" fill="${colorOf(strategy)}" stroke="${colorOf(strategy)}" stroke-width="2"/><text x="52" y="${ly}" font-size="12">${escapeXml(label)}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    ...panels,
    `<text x="24" y="${legendTop + 4}" font-size="12">● every output at that budget fits it   ○ some outputs are over the budget (their retention is not comparable)</text>`,
    ...legend,
    '</svg>',
    '',
  ].join('\n');
}
