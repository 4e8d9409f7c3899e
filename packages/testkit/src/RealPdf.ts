/**
 * Real PDF files for the document reader, written byte by byte to the PDF 1.4 format (poppler
 * reads them as any PDF): pages of text in Helvetica (Latin-1 by WinAnsiEncoding), pages that are
 * only a scanned picture (a JPEG, as a scanner writes), and a file locked by a password.
 */

/** A page: lines of text, or a picture filling it. */
export type PdfPage =
  | { readonly _tag: "Text"; readonly lines: ReadonlyArray<string> }
  | { readonly _tag: "Scan"; readonly jpeg: Uint8Array; readonly width: number; readonly height: number }

export const textPage = (...lines: ReadonlyArray<string>): PdfPage => ({ _tag: "Text", lines })
export const scanPage = (jpeg: Uint8Array, width: number, height: number): PdfPage => ({ _tag: "Scan", jpeg, width, height })

const latin1 = (text: string) => Buffer.from(text, "latin1")

/** A string literal in a content stream: Latin-1, with its delimiters escaped. */
const literal = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`

/**
 * The PDF of these pages (text on A4, 595 × 842 points; a scan the size of its picture at 150 dpi). `locked`: an encryption dictionary whose
 * user password is not empty, so a reader without the password cannot open it.
 */
export const pdfOf = (pages: ReadonlyArray<PdfPage>, options: { readonly locked?: boolean } = {}): Uint8Array => {
  const objects: Array<Buffer> = []
  const add = (body: Buffer | string) => {
    objects.push(typeof body === "string" ? latin1(body) : body)
    return objects.length
  }
  const stream = (dictionary: string, data: Buffer) =>
    Buffer.concat([latin1(`<< ${dictionary} /Length ${data.length} >>\nstream\n`), data, latin1("\nendstream")])
  const catalog = add("")
  const tree = add("")
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
  const kids = pages.map((page) => {
    if (page._tag === "Text") {
      const body = ["BT", "/F1 14 Tf", "16 TL", "72 770 Td", ...page.lines.map((line) => `${literal(line)} Tj T*`), "ET"].join("\n")
      const content = add(stream("", latin1(body)))
      return add(`<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`)
    }
    const image = add(stream(
      `/Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`,
      Buffer.from(page.jpeg)
    ))
    // The page is the picture's size at 150 dpi, as a scanner sets it.
    const [w, h] = [Math.round(page.width * 72 / 150), Math.round(page.height * 72 / 150)]
    const content = add(stream("", latin1(`q ${w} 0 0 ${h} 0 0 cm /Im1 Do Q`)))
    return add(`<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im1 ${image} 0 R >> >> /Contents ${content} 0 R >>`)
  })
  objects[catalog - 1] = latin1(`<< /Type /Catalog /Pages ${tree} 0 R >>`)
  objects[tree - 1] = latin1(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`)
  const encrypt = options.locked === true
    ? add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O <${"5a".repeat(32)}> /U <${"a5".repeat(32)}> >>`)
    : null
  const chunks: Array<Buffer> = [latin1("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")]
  let offset = chunks[0]!.length
  const offsets: Array<number> = []
  objects.forEach((body, i) => {
    offsets.push(offset)
    const object = Buffer.concat([latin1(`${i + 1} 0 obj\n`), body, latin1("\nendobj\n")])
    chunks.push(object)
    offset += object.length
  })
  const xref = [`xref\n0 ${objects.length + 1}\n`, "0000000000 65535 f \n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("")
  const id = "0123456789abcdef0123456789abcdef"
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${encrypt === null ? "" : ` /Encrypt ${encrypt} 0 R`} /ID [<${id}> <${id}>] >>\nstartxref\n${offset}\n%%EOF\n`
  chunks.push(latin1(xref + trailer))
  return new Uint8Array(Buffer.concat(chunks))
}
