/**
 * The approved WhatsApp message template a reminder is sent as outside WhatsApp's 24-hour window
 * (`VERBATIM_WHATSAPP_REMINDER_TEMPLATE`, in `VERBATIM_WHATSAPP_REMINDER_TEMPLATE_LANGUAGE`,
 * default `en`); its body takes one parameter, the reminder's words. Unset: such a reminder waits
 * for the user's next message.
 */
import { Config, Context, Layer, Option } from "effect"

export interface TemplateName {
  readonly name: string
  readonly language: string
}

export class ReminderTemplate extends Context.Tag("@verbatim/server/ReminderTemplate")<ReminderTemplate, {
  readonly template: Option.Option<TemplateName>
}>() {
  static readonly layerConfig = Layer.effect(
    ReminderTemplate,
    Config.all({
      name: Config.option(Config.string("VERBATIM_WHATSAPP_REMINDER_TEMPLATE")),
      language: Config.string("VERBATIM_WHATSAPP_REMINDER_TEMPLATE_LANGUAGE").pipe(Config.withDefault("en"))
    }).pipe(Config.map(({ language, name }) => ({
      template: Option.map(Option.filter(name, (n) => n.trim() !== ""), (n) => ({ name: n.trim(), language: language.trim() }))
    })))
  )

  static readonly layer = (template: TemplateName | null) => Layer.succeed(ReminderTemplate, { template: Option.fromNullable(template) })
}
