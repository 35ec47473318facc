import { makeTemplate } from './server';

/** Once per e2e run: the data directory every studio of the run starts from (see TEMPLATE_DIR). */
export default async function setup() {
  await makeTemplate();
}
