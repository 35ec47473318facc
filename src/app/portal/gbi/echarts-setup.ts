/**
 * The parts of echarts GBI draws with (bar, line, pie on a canvas), registered once. Loaded only by
 * a dynamic import from result-chart.tsx: its own chunk, never in the console's or the portal's
 * first load.
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { echarts };
