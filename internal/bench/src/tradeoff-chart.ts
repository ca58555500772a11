import type { CompactionSummary } from './compaction-summary.js';
import type { FixtureKind } from './fixture-set.js';

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#17becf'];
const PANEL = { width: 420, height: 340, left: 60, top: 50, plot: 260 };

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A point per strategy and target: x = median tokens after (% of original), y = median retention. */
function panel(
  summaries: readonly CompactionSummary[],
  kind: FixtureKind,
  title: string,
  offsetX: number,
  colorOf: (strategy: string) => string,
  numberOf: (strategy: string) => number,
): string {
  const x = (share: number) => offsetX + PANEL.left + Math.min(1, Math.max(0, share)) * PANEL.plot;
  const y = (share: number) => PANEL.top + (1 - Math.min(1, Math.max(0, share))) * PANEL.plot;
  const parts: string[] = [];
  parts.push(
    `<text x="${offsetX + PANEL.left + PANEL.plot / 2}" y="${PANEL.top - 18}" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  );
  for (let tick = 0; tick <= 100; tick += 25) {
    const share = tick / 100;
    parts.push(`<line x1="${x(share)}" y1="${y(0)}" x2="${x(share)}" y2="${y(1)}" stroke="#e5e5e5"/>`);
    parts.push(`<line x1="${x(0)}" y1="${y(share)}" x2="${x(1)}" y2="${y(share)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${x(share)}" y="${y(0) + 16}" text-anchor="middle" font-size="11">${tick}%</text>`);
    parts.push(`<text x="${x(0) - 6}" y="${y(share) + 4}" text-anchor="end" font-size="11">${tick}%</text>`);
  }
  parts.push(`<rect x="${x(0)}" y="${y(1)}" width="${PANEL.plot}" height="${PANEL.plot}" fill="none" stroke="#333"/>`);
  parts.push(`<text x="${x(0.5)}" y="${y(0) + 34}" text-anchor="middle" font-size="12">tokens after (% of original, median)</text>`);
  parts.push(`<text transform="translate(${offsetX + 16} ${y(0.5)}) rotate(-90)" text-anchor="middle" font-size="12">probes retained (median)</text>`);
  for (const summary of summaries.filter((entry) => entry.kind === kind && entry.medianRetention !== undefined)) {
    const cx = x(summary.medianTokensAfterShare);
    const cy = y(summary.medianRetention!);
    const color = colorOf(summary.strategy);
    const label = `${summary.strategy} @ ${Math.round(summary.target * 100)}%`;
    // Circle: target 50%; square: target 25% (or any other target).
    const marker =
      summary.target === 0.5
        ? `<circle cx="${cx}" cy="${cy}" r="6" fill="${color}" fill-opacity="0.75" stroke="#222"><title>${escapeXml(label)}</title></circle>`
        : `<rect x="${cx - 5.5}" y="${cy - 5.5}" width="11" height="11" fill="${color}" fill-opacity="0.75" stroke="#222"><title>${escapeXml(label)}</title></rect>`;
    parts.push(marker);
    // Points often coincide; the legend number beside each (50% above, 25% below) tells them apart.
    const labelY = summary.target === 0.5 ? cy - 8 : cy + 16;
    parts.push(`<text x="${cx + 7}" y="${labelY}" font-size="10" fill="#333">${numberOf(summary.strategy)}</text>`);
  }
  return parts.join('\n');
}

/** The trade-off chart of docs/benchmarks.md: one panel per dataset, a legend of strategies. */
export function renderTradeoffChart(summaries: readonly CompactionSummary[]): string {
  const strategies = [...new Set(summaries.map((summary) => summary.strategy))];
  const colorOf = (strategy: string) => COLORS[strategies.indexOf(strategy) % COLORS.length]!;
  const kinds = [...new Set(summaries.map((summary) => summary.kind))];
  const titles: Record<FixtureKind, string> = { 'swe-agent': 'SWE-agent (Django)', 'tau-bench': 'tau-bench (airline)' };
  const numberOf = (strategy: string) => strategies.indexOf(strategy) + 1;
  const legendTop = PANEL.height + 30;
  const width = Math.max(1, kinds.length) * PANEL.width + 20;
  const height = legendTop + 24 + Math.ceil(strategies.length / 2) * 20 + 30;
  const legend = strategies.map((strategy, index) => {
    const column = index % 2;
    const row = Math.floor(index / 2);
    const lx = 30 + column * 400;
    const ly = legendTop + 24 + row * 20;
    return `<circle cx="${lx}" cy="${ly - 4}" r="6" fill="${colorOf(strategy)}" fill-opacity="0.75" stroke="#222"/><text x="${lx + 12}" y="${ly}" font-size="12">${numberOf(strategy)}  ${escapeXml(strategy)}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    ...kinds.map((kind, index) => panel(summaries, kind, titles[kind], index * PANEL.width, colorOf, numberOf)),
    `<text x="30" y="${legendTop + 4}" font-size="12">● target 50% of the tokens   ■ target 25%   (top left is best: small and still knowing the facts)</text>`,
    ...legend,
    `</svg>`,
    '',
  ].join('\n');
}
