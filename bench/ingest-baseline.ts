/**
 * The ingest baseline: a minimal `node:http` server that inserts each Telegram update as one
 * row with better-sqlite3, one transaction (and at FULL one fsync) per request.
 * Usage: tsx bench/ingest-baseline.ts <port> <database file> <FULL|NORMAL>
 */
import Database from "better-sqlite3"
import { createServer } from "node:http"

const [port, filename, synchronous] = process.argv.slice(2)
const db = new Database(filename!)
db.pragma("journal_mode = WAL")
db.pragma(`synchronous = ${synchronous === "NORMAL" ? "NORMAL" : "FULL"}`)
db.exec(`CREATE TABLE IF NOT EXISTS updates (update_id INTEGER PRIMARY KEY, chat TEXT NOT NULL, text TEXT NOT NULL, body TEXT NOT NULL)`)
const insert = db.prepare(`INSERT OR IGNORE INTO updates (update_id, chat, text, body) VALUES (?, ?, ?, ?)`)

createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    try {
      const body = Buffer.concat(chunks).toString("utf8")
      const update = JSON.parse(body) as { update_id: number; message: { chat: { id: number }; text: string } }
      insert.run(update.update_id, String(update.message.chat.id), update.message.text, body)
      response.writeHead(200).end("ok")
    } catch {
      response.writeHead(400).end("bad request")
    }
  })
}).listen(Number(port), "127.0.0.1", () => process.stdout.write("listening\n"))
