/// What every XML reader does before libxml2 sees a byte: cap the size, expand a DOCTYPE's
/// internal entities within a budget (refusing parameter and external ones), find the undeclared
/// HTML entities to turn into character references, and pick Windows-1252 for bytes that are not
/// UTF-8 in a document that names no encoding.
struct PreparedXML {
  /// The document as it came, with its declared entities expanded; the HTML entities are not
  /// replaced in it but as it is given to libxml2 (``repairs``), so that a large body is not
  /// held twice.
  let bytes: [UInt8]
  /// The HTML entities to replace as `bytes` are given to libxml2, in document order.
  let repairs: [EntityRepair.Replacement]
  let encoding: String?
  let notes: [String]
  /// Whether libxml2 reads the bytes as UTF-8 (no other encoding declared or guessed).
  let isUTF8: Bool

  init(_ original: [UInt8], limits: MarkupLimits) throws {
    guard original.count <= limits.maxBytes else {
      throw MarkupError(
        .tooLarge, "the document is \(original.count) bytes; the limit is \(limits.maxBytes)")
    }
    var input = original
    var notes: [String] = []
    // Internal entities are expanded here, within a budget (libxml2 never expands one); what
    // is left declared after that (a subset this reader could not make out) is refused.
    if let expanded = try InternalEntities.expand(original) {
      input = expanded
      notes.append("expanded the entities the document declares in its DOCTYPE")
    } else if let place = Prolog.entityDeclaration(in: original) {
      throw MarkupError(
        .entityDeclaration, "the document declares entities in a way this reader refuses",
        line: place.line, column: place.column)
    }
    // Replacing ASCII bytes by ASCII bytes: whether the document is UTF-8 is the same after.
    repairs = EntityRepair.replacements(in: input)
    if !repairs.isEmpty {
      notes.append("replaced \(repairs.count) HTML entities that XML does not define")
    }
    var encoding: String?
    let declaresOther = Prolog.declaresNonUTF8Encoding(input)
    if !declaresOther, !UTF8Check.isValid(input) {
      encoding = "WINDOWS-1252"
      notes.append("the document is not valid UTF-8 and declares no encoding; read as Windows-1252")
    }
    self.bytes = input
    self.encoding = encoding
    self.notes = notes
    isUTF8 = !declaresOther && encoding == nil
  }

  /// The whole document with its HTML entities replaced (the recovering reader's, which libxml2
  /// reads at once).
  var repairedBytes: [UInt8] { EntityRepair.applying(repairs, to: bytes) }
}
