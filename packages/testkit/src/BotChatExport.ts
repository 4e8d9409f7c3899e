/**
 * A Telegram Desktop export of Zoë's (user 4242) own chat with the bot (user 777), as the app
 * writes it: her `/start`, the bot's reply (from `user777`), a forward of Bob's line and a line of
 * her own on two lines. Telegram numbered these messages in her account, not the bot's.
 */
export const botChatExport = JSON.stringify({
  name: "Verbatim",
  type: "bot_chat",
  id: 777,
  messages: [
    { id: 90, type: "message", date: "2024-03-01T09:00:00", date_unixtime: "1709283600", from: "Zoë", from_id: "user4242", text: "/start" },
    { id: 91, type: "message", date: "2024-03-01T09:00:01", date_unixtime: "1709283601", from: "Verbatim", from_id: "user777", text: "Forward me anything." },
    {
      id: 92, type: "message", date: "2024-03-01T09:01:00", date_unixtime: "1709283660", from: "Zoë", from_id: "user4242",
      forwarded_from: "Bob Ray", text: "Call me after 6"
    },
    { id: 93, type: "message", date: "2024-03-01T09:01:30", date_unixtime: "1709283690", from: "Zoë", from_id: "user4242", text: "Bob is Ana's\nbrother" }
  ]
})
