/** Text from the pages' HTML as a browser reads it: the entities the escaping template tag writes, undone. */
const entities: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&amp;": "&" }

export const unescapeHtml = (text: string): string => text.replace(/&(lt|gt|quot|#39|amp);/g, (e) => entities[e] ?? e)

/** A page's main content as read: tags dropped, entities undone, spaces collapsed. */
export const mainText = (body: string) =>
  unescapeHtml((/<main id="main">([\s\S]*)<\/main>/.exec(body)?.[1] ?? body).replace(/<\/?time[^>]*>/g, "").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim()
