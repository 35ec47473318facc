import type { i18n as I18n } from 'i18next';
import type { AnyNodePlugin, NodeRegistry } from '../../plugin-sdk';

const registered = new WeakSet<object>();

/**
 * Adds the plugins' texts (and the SDK's) to i18next, once per registry: a plugin's title,
 * description, handle labels and issues live in its own namespace `node-<kind>`.
 */
export function registerPluginTexts(i18n: I18n, registry: NodeRegistry): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  const messages = registry.messages();
  for (const lng of ['zh', 'en'] as const) {
    for (const [ns, texts] of Object.entries(messages[lng])) i18n.addResourceBundle(lng, ns, texts, true, false);
  }
}

type T = (key: string, opts?: Record<string, unknown>) => string;

/** The kind's translated title. */
export const kindTitle = (t: T, plugin: Pick<AnyNodePlugin, 'ns' | 'titleKey'>) => t(`${plugin.ns}:${plugin.titleKey}`);
/** The kind's translated one-line description. */
export const kindDescription = (t: T, plugin: Pick<AnyNodePlugin, 'ns' | 'descriptionKey'>) => t(`${plugin.ns}:${plugin.descriptionKey}`);
