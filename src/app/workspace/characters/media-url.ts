/** Where a character's portrait or clip is served (public like app icons: <img>/<video> send no token). */
export const mediaUrl = (fileId: string) => `/api/v1/common/files/${encodeURIComponent(fileId)}/icon`;
