import { readSettings } from './settings';
import { createStudio } from './server';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { loggerOptions } from './http/log-options';

const settings = readSettings();
const studio = await createStudio(settings, {
  logger: settings.logLevel === 'silent' ? false : loggerOptions(settings.logLevel),
});
await studio.app.listen({ host: settings.host, port: settings.port });
const addr = studio.app.server.address();
const port = typeof addr === 'object' && addr ? addr.port : settings.port;
const host = settings.host === '0.0.0.0' || settings.host === '::' ? 'localhost' : settings.host;
const lines = [
  '',
  `  Weft is running at http://${host}:${port}/`,
  `  Database: ${studio.database.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${settings.dataDir}` : 'PostgreSQL server (DATABASE_URL)'}`,
];
if (studio.seeded.generatedPassword) {
  lines.push(
    `  First admin login: tenant "Default tenant" (${DEFAULT_TENANT_ID}), user "${studio.seeded.username}", password "${studio.seeded.generatedPassword}"`,
    '  The password is shown only this once: change it after signing in (user menu > Change password).',
  );
} else if (studio.seeded.created) {
  lines.push(`  First admin login: user "${studio.seeded.username}" with the password from WEFT_ADMIN_PASSWORD`);
} else {
  lines.push(`  Admin user: "${studio.seeded.username}" (password as set on first start)`);
}
if (settings.httpAllowPrivate) {
  lines.push(
    '  Warning: WEFT_HTTP_ALLOW_PRIVATE is deprecated. It opens the private ranges to users\' connections (not loopback,',
    '  link-local or cloud metadata); name what they may reach in WEFT_OUTBOUND_ALLOW (e.g. 10.20.0.0/16,db.corp:1521) instead.',
  );
}
console.log(lines.join('\n') + '\n');

const stop = async () => {
  await studio.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
