internal import Foundation

extension DateText.RelativeWords {
  /// The words of the other languages sites are written in, as their listing pages write
  /// relative dates: Marktplaats and 2dehands (`Vandaag`, `Gisteren`), OLX.pl (`Dzisiaj o
  /// 17:22`), and the usual "3 hours ago" forms of each language.
  static let others: [String: DateText.RelativeWords] = [
    "nl": .init(
      now: ["zojuist", "net", "nu", "zonet"],
      days: ["vandaag": 0, "gisteren": 1, "eergisteren": 2], counts: ["een": 1, "één": 1],
      units: units([
        .second: ["seconde", "seconden", "sec"], .minute: ["minuut", "minuten", "min"],
        .hour: ["uur", "uren", "u"], .day: ["dag", "dagen"], .week: ["week", "weken"],
        .month: ["maand", "maanden"], .year: ["jaar", "jaren"],
      ]), ago: (nil, "geleden"), filler: ["om", "uur"]),
    "pl": .init(
      now: ["przed chwilą", "teraz"],
      days: ["dzisiaj": 0, "dziś": 0, "wczoraj": 1, "przedwczoraj": 2],
      counts: [:],
      units: units([
        .second: ["sekunda", "sekundy", "sekund", "sek"],
        .minute: ["minuta", "minuty", "minut", "min"],
        .hour: ["godzina", "godziny", "godzin", "godz"], .day: ["dzień", "dni"],
        .week: ["tydzień", "tygodnie", "tygodni"], .month: ["miesiąc", "miesiące", "miesięcy"],
        .year: ["rok", "lata", "lat"],
      ]), ago: (nil, "temu"), filler: ["o"]),
    "it": .init(
      now: ["adesso", "proprio ora", "ora"], days: ["oggi": 0, "ieri": 1],
      counts: ["un": 1, "una": 1],
      units: units([
        .second: ["secondo", "secondi"], .minute: ["minuto", "minuti", "min"],
        .hour: ["ora", "ore"], .day: ["giorno", "giorni"], .week: ["settimana", "settimane"],
        .month: ["mese", "mesi"], .year: ["anno", "anni"],
      ]), ago: (nil, "fa"), filler: ["alle", "ore", "h"]),
    "fr": .init(
      now: ["à l'instant", "maintenant"], days: ["aujourd'hui": 0, "hier": 1, "avant-hier": 2],
      counts: ["un": 1, "une": 1],
      units: units([
        .second: ["seconde", "secondes", "s"], .minute: ["minute", "minutes", "min"],
        .hour: ["heure", "heures", "h"], .day: ["jour", "jours"], .week: ["semaine", "semaines"],
        .month: ["mois"], .year: ["an", "ans", "année", "années"],
      ]), ago: ("ilya", nil), filler: ["à"], phrases: ["il y a ": "ilya "]),
    "es": .init(
      now: ["ahora", "justo ahora", "ahora mismo"], days: ["hoy": 0, "ayer": 1, "anteayer": 2],
      counts: ["un": 1, "una": 1],
      units: units([
        .second: ["segundo", "segundos", "seg"], .minute: ["minuto", "minutos", "min"],
        .hour: ["hora", "horas", "h"], .day: ["día", "días", "dia", "dias"],
        .week: ["semana", "semanas"], .month: ["mes", "meses"], .year: ["año", "años"],
      ]), ago: ("hace", nil), filler: ["a", "las", "la"]),
    "pt": .init(
      now: ["agora", "agora mesmo"], days: ["hoje": 0, "ontem": 1, "anteontem": 2],
      counts: ["um": 1, "uma": 1],
      units: units([
        .second: ["segundo", "segundos"], .minute: ["minuto", "minutos", "min"],
        .hour: ["hora", "horas", "h"], .day: ["dia", "dias"], .week: ["semana", "semanas"],
        .month: ["mês", "meses"], .year: ["ano", "anos"],
      ]), ago: ("há", nil), filler: ["às", "as"]),
    "cs": .init(
      now: ["právě teď", "teď"], days: ["dnes": 0, "včera": 1, "předevčírem": 2], counts: [:],
      units: units([
        .second: ["sekundou", "sekundami"], .minute: ["minutou", "minutami"],
        .hour: ["hodinou", "hodinami"], .day: ["dnem", "dny"], .week: ["týdnem", "týdny"],
        .month: ["měsícem", "měsíci"], .year: ["rokem", "lety", "roky"],
      ]), ago: ("před", nil), filler: ["v", "ve"]),
    "sk": .init(
      now: ["práve teraz", "teraz"], days: ["dnes": 0, "včera": 1, "predvčerom": 2], counts: [:],
      units: units([
        .second: ["sekundou", "sekundami"], .minute: ["minútou", "minútami"],
        .hour: ["hodinou", "hodinami"], .day: ["dňom", "dňami"], .week: ["týždňom", "týždňami"],
        .month: ["mesiacom", "mesiacmi"], .year: ["rokom", "rokmi"],
      ]), ago: ("pred", nil), filler: ["o", "v"]),
  ]

  /// Unit words by unit, as the table of words to units.
  private static func units(_ words: [DateText.Unit: [String]]) -> [String: DateText.Unit] {
    var table: [String: DateText.Unit] = [:]
    for (unit, list) in words { for word in list { table[word] = unit } }
    return table
  }
}
