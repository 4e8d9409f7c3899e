/** Text from the pages' HTML as a browser reads it: the entities the escaping template tag writes, undone. */
const entities: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&amp;": "&" }

export const unescapeHtml = (text: string): string => text.replace(/&(lt|gt|quot|#39|amp);/g, (e) => entities[e] ?? e)
