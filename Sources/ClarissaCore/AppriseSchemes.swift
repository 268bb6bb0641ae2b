/// The schemes of Apprise's services (as of Apprise 1.9; those clarissa sends to itself are
/// claimed by their kinds first): an unknown scheme among them is answered with
/// `apprise://SCHEME://...`.
enum AppriseSchemes {
  static let known: Set<String> = [
    "apprise", "apprises", "bark", "barks", "bluesky", "bulksms", "bulkvs", "burstsms",
    "clickatell", "clicksend", "d7sms", "dapnet", "dbus", "dingtalk", "emby", "embys", "enigma2",
    "enigma2s", "fcm", "feishu", "flock", "form", "forms", "gchat", "glib", "gnome", "gotify",
    "gotifys", "growl",
    "guilded", "hassio", "hassios", "httpsms", "ifttt", "join", "kde", "kodi", "kodis",
    "kumulos", "lametric", "lametrics", "line", "lunasea", "lunaseas", "macosx", "mailgun",
    "mailtos", "mastodon", "mastodons", "matrix", "matrixs", "misskey", "misskeys", "mmost",
    "mmosts", "mqtt",
    "mqtts", "msg91", "msteams", "nctalk", "nctalks", "ncloud", "nclouds", "nexmo", "notica",
    "notifiarr", "notifico", "office365", "onesignal", "opsgenie", "pagerduty", "pagertree",
    "parsep", "parseps", "pbul", "pjet", "pjets", "popcorn", "pover", "prowl", "psafer", "psafers",
    "pushed", "pushme", "pushplus", "pushy", "qq", "reddit", "resend", "revolt", "rocket",
    "rockets", "rsyslog", "ryver", "sendgrid", "serverchan", "ses", "seven", "signal",
    "signals", "simplepush", "sinch", "smseagle", "smseagles", "smtp2go", "sns", "sparkpost",
    "splunk", "spush", "streamlabs", "strmlabs", "synology", "synologys", "syslog", "techulus",
    "threema", "toot", "toots", "tweet", "twilio", "twist", "twitter", "victorops", "voipms",
    "vonage", "webex", "whatsapp", "windows", "wxpusher", "wxteams", "x", "xbmc", "xbmcs", "xml",
    "xmls", "zulip",
  ]
}
