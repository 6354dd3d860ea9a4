/** A panel's box on screen. */
export interface PanelSize {
  readonly width: number;
  readonly height: number;
}

/**
 * Where the panels go for a terminal size: Toolbox and Plan side by side above the Event stream, or
 * stacked when the terminal is too narrow for two useful columns. Heights always add up to the space
 * given, so the view never grows past the screen (which would make the terminal scroll on every frame).
 */
export interface RunViewLayout {
  readonly arrangement: 'side-by-side' | 'stacked';
  readonly toolbox: PanelSize;
  readonly plan: PanelSize;
  readonly stream: PanelSize;
}

export interface RunViewLayoutInput {
  readonly width: number;
  /** Rows for the three panels together (the screen minus header and footer). */
  readonly height: number;
  /** Content rows the Toolbox and Plan panels would like, before borders and titles; 0 for the plan: no Plan panel at all. */
  readonly toolboxContentRows: number;
  readonly planContentRows: number;
}

/** Below this width two panels side by side would each be too narrow to read. */
const sideBySideMinimumWidth = 64;
const toolboxMaximumWidth = 60;
/** Borders and title row around each panel's content. */
const panelChromeRows = 3;
/** The stream keeps at least this many rows, whatever the other panels want. */
const streamMinimumHeight = 6;

/**
 * A run without a plan (not convergence-gated) draws no Plan panel: the Toolbox takes the whole width
 * and the stream every row the Toolbox does not need.
 */
export function planRunViewLayout({ width, height, toolboxContentRows, planContentRows }: RunViewLayoutInput): RunViewLayout {
  const toolboxWanted = toolboxContentRows + panelChromeRows;
  if (planContentRows === 0) {
    const toolboxHeight = clamp(toolboxWanted, panelChromeRows + 1, Math.min(Math.max(panelChromeRows + 1, Math.floor(height * 0.45)), height - streamMinimumHeight));
    return {
      arrangement: 'stacked',
      toolbox: { width, height: toolboxHeight },
      plan: { width, height: 0 },
      stream: { width, height: Math.max(panelChromeRows, height - toolboxHeight) },
    };
  }
  const planWanted = planContentRows + panelChromeRows;
  if (width >= sideBySideMinimumWidth) {
    const topCap = Math.max(panelChromeRows + 2, Math.floor(height * 0.45));
    const top = clamp(Math.max(toolboxWanted, planWanted), panelChromeRows + 1, Math.min(topCap, height - streamMinimumHeight));
    const toolboxWidth = Math.min(toolboxMaximumWidth, Math.floor(width / 2));
    return {
      arrangement: 'side-by-side',
      toolbox: { width: toolboxWidth, height: top },
      plan: { width: width - toolboxWidth, height: top },
      stream: { width, height: Math.max(panelChromeRows, height - top) },
    };
  }
  // Stacked panels share half the height; the plan gets what it needs up to half of that, the toolbox the rest.
  const topBudget = Math.max(2 * (panelChromeRows + 1), Math.floor(height * 0.5));
  const planHeight = Math.min(planWanted, Math.max(panelChromeRows + 1, Math.floor(topBudget / 2)));
  const toolboxHeight = Math.min(toolboxWanted, topBudget - planHeight);
  return {
    arrangement: 'stacked',
    toolbox: { width, height: toolboxHeight },
    plan: { width, height: planHeight },
    stream: { width, height: Math.max(panelChromeRows, height - toolboxHeight - planHeight) },
  };
}

function clamp(value: number, minimum: number, maximum: number): number {
  return Math.max(minimum, Math.min(value, maximum));
}
