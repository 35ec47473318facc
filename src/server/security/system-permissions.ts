import type { FastifyRequest } from 'fastify';
import { requireCaller, type Caller } from '../context';
import { forbidden } from '../errors';
import { roleMay, type SystemPermissionKey } from './system-permission-rules';

export { permissionRules, roleMay, SYSTEM_PERMISSIONS, type SystemPermissionKey } from './system-permission-rules';

/** The caller, when their role holds the permission; else 403 PERMISSION-1000 (401 without a caller). */
export function requirePermission(req: FastifyRequest, key: SystemPermissionKey): Caller {
  const caller = requireCaller(req);
  if (!roleMay(caller.role, key)) throw forbidden();
  return caller;
}
