/// The namespace URIs feeds use.
enum Namespace {
  static let atom = "http://www.w3.org/2005/Atom"
  static let atom03 = "http://purl.org/atom/ns#"
  static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  static let rss1 = "http://purl.org/rss/1.0/"
  static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
  static let dublinCore = "http://purl.org/dc/elements/1.1/"
  static let content = "http://purl.org/rss/1.0/modules/content/"
  static let media = "http://search.yahoo.com/mrss/"
  static let xhtml = "http://www.w3.org/1999/xhtml"
}
