import { z } from 'zod';

/**
 * The example's credentials, to show how a plugin declares them (text statistics needs none to
 * count): `npm run plugin:pack` turns this schema into the manifest's `credentials_schema`, System ›
 * Plugins draws a form from it, and each tenant's values reach the executors through
 * `services.credentials.forKind(kind)`. `secret: true` marks a value stored encrypted and shown
 * masked; `titles` gives the form's labels in zh and en.
 */
export default z.object({
  api_key: z.string().min(8).max(200).meta({ secret: true, titles: { zh: 'API 密钥', en: 'API key' } }),
  endpoint: z.string().max(200).optional().meta({ titles: { zh: '服务地址', en: 'Endpoint' } }),
});
