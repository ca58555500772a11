import type { ScalingPoint } from './scaling-workload.js';
import type { TimingMode } from './speed-contender.js';

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#17becf'];
const PANEL = { width: 440, left: 70, top: 50, plotWidth: 340, plotHeight: 260 };
const TITLES: Record<TimingMode, string> = { fresh: 'new counter (same process)', warm: 'warm (counts cached, run once before)' };

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function powersOfTen(low: number, high: number): number[] {
  const powers: number[] = [];
  for (let exponent = Math.floor(Math.log10(low)); exponent <= Math.ceil(Math.log10(high)); exponent += 1) powers.push(10 ** exponent);
  return powers;
}

function tickLabel(value: number, unit: string): string {
  if (value >= 1e6) return `${value / 1e6}M${unit}`;
  if (value >= 1e3) return `${value / 1e3}K${unit}`;
  return `${value}${unit}`;
}

/**
 * docs/benchmarks-scaling.svg: median ms against conversation tokens, log-log, a line per
 * contender; one panel per mode. A straight line of slope 1 is linear work, of slope 2 quadratic.
 */
export function renderScalingChart(points: readonly ScalingPoint[], labels: ReadonlyMap<string, string>): string {
  const measured = points.filter((point) => point.medianMs !== undefined && point.medianMs > 0);
  const contenders = [...new Set(points.map((point) => point.contender))];
  const colorOf = (contender: string) => COLORS[contenders.indexOf(contender) % COLORS.length]!;
  const tokens = measured.map((point) => point.tokens);
  const times = measured.map((point) => point.medianMs!);
  const xTicks = tokens.length > 0 ? powersOfTen(Math.min(...tokens), Math.max(...tokens)) : [1e4, 1e7];
  const yTicks = times.length > 0 ? powersOfTen(Math.min(...times), Math.max(...times)) : [0.1, 1e4];
  const [xLow, xHigh] = [Math.log10(xTicks[0]!), Math.log10(xTicks[xTicks.length - 1]!)];
  const [yLow, yHigh] = [Math.log10(yTicks[0]!), Math.log10(yTicks[yTicks.length - 1]!)];
  const panel = (mode: TimingMode, offsetX: number): string => {
    // A tenth of a pixel is all the precision a plot needs; the file stays reviewable in a diff.
    const round = (value: number) => Math.round(value * 10) / 10;
    const x = (value: number) => round(offsetX + PANEL.left + ((Math.log10(value) - xLow) / Math.max(1e-9, xHigh - xLow)) * PANEL.plotWidth);
    const y = (value: number) => round(PANEL.top + (1 - (Math.log10(value) - yLow) / Math.max(1e-9, yHigh - yLow)) * PANEL.plotHeight);
    const parts = [
      `<text x="${offsetX + PANEL.left + PANEL.plotWidth / 2}" y="${PANEL.top - 18}" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(TITLES[mode])}</text>`,
    ];
    for (const tick of xTicks) {
      parts.push(`<line x1="${x(tick)}" y1="${PANEL.top}" x2="${x(tick)}" y2="${PANEL.top + PANEL.plotHeight}" stroke="#e5e5e5"/>`);
      parts.push(`<text x="${x(tick)}" y="${PANEL.top + PANEL.plotHeight + 16}" text-anchor="middle" font-size="11">${tickLabel(tick, '')}</text>`);
    }
    for (const tick of yTicks) {
      parts.push(`<line x1="${offsetX + PANEL.left}" y1="${y(tick)}" x2="${offsetX + PANEL.left + PANEL.plotWidth}" y2="${y(tick)}" stroke="#e5e5e5"/>`);
      parts.push(`<text x="${offsetX + PANEL.left - 6}" y="${y(tick) + 4}" text-anchor="end" font-size="11">${tickLabel(tick, ' ms')}</text>`);
    }
    parts.push(`<rect x="${offsetX + PANEL.left}" y="${PANEL.top}" width="${PANEL.plotWidth}" height="${PANEL.plotHeight}" fill="none" stroke="#333"/>`);
    parts.push(
      `<text x="${offsetX + PANEL.left + PANEL.plotWidth / 2}" y="${PANEL.top + PANEL.plotHeight + 34}" text-anchor="middle" font-size="12">conversation tokens (log)</text>`,
    );
    parts.push(
      `<text transform="translate(${offsetX + 16} ${PANEL.top + PANEL.plotHeight / 2}) rotate(-90)" text-anchor="middle" font-size="12">median ms (log)</text>`,
    );
    for (const contender of contenders) {
      const line = measured.filter((point) => point.contender === contender && point.mode === mode).sort((a, b) => a.tokens - b.tokens);
      if (line.length === 0) continue;
      const color = colorOf(contender);
      if (line.length > 1) {
        parts.push(
          `<polyline points="${line.map((point) => `${x(point.tokens)},${y(point.medianMs!)}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`,
        );
      }
      for (const point of line) {
        const label = `${labels.get(contender) ?? contender}, ${point.tokens} tokens: ${Math.round(point.medianMs! * 100) / 100} ms`;
        parts.push(
          `<circle cx="${x(point.tokens)}" cy="${y(point.medianMs!)}" r="4" fill="${color}" stroke="#222"><title>${escapeXml(label)}</title></circle>`,
        );
      }
    }
    return parts.join('\n');
  };
  const legendTop = PANEL.top + PANEL.plotHeight + 60;
  const width = 2 * PANEL.width + 20;
  const height = legendTop + Math.ceil(contenders.length / 2) * 20 + 20;
  const legend = contenders.map((contender, index) => {
    const lx = 30 + (index % 2) * 440;
    const ly = legendTop + Math.floor(index / 2) * 20;
    return `<line x1="${lx - 10}" y1="${ly - 4}" x2="${lx + 10}" y2="${ly - 4}" stroke="${colorOf(contender)}" stroke-width="2"/><circle cx="${lx}" cy="${ly - 4}" r="4" fill="${colorOf(contender)}" stroke="#222"/><text x="${lx + 16}" y="${ly}" font-size="12">${escapeXml(labels.get(contender) ?? contender)}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    panel('fresh', 0),
    panel('warm', PANEL.width),
    ...legend,
    '</svg>',
    '',
  ].join('\n');
}
