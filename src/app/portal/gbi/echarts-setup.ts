/**
 * The parts of echarts GBI draws with (bar, line, pie on a canvas), registered once. Loaded only by
 * a dynamic import from result-chart.tsx: its own chunk, never in the console's or the portal's
 * first load.
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { LabelLayout } from 'echarts/features';
import { CanvasRenderer } from 'echarts/renderers';

// The pie's labels need the label layout feature (without it the pie fails to draw).
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, LabelLayout, CanvasRenderer]);

export { echarts };
