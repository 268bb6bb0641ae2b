import FixtureSupport
import Foundation
import Testing

@testable import Markup

/// The entity repair's scan by `memchr` and `memmem` makes of a document what its first scan, byte
/// by byte, made: over every file of `Fixtures/` and over the cases where a
/// reference's place (a CDATA section, a comment) or its end decides.
@Suite struct EntityRepairTests {
  static let files: [String] = {
    let root = Fixtures.root
    let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    var paths: [String] = []
    while let url = walker?.nextObject() as? URL {
      let values = try? url.resourceValues(forKeys: [.isRegularFileKey])
      if values?.isRegularFile == true {
        paths.append(String(url.path.dropFirst(root.path.count + 1)))
      }
    }
    return paths.sorted()
  }()

  @Test func theFixturesAreThere() {
    #expect(Self.files.count > 400)
    #expect(Self.files.contains("feeds/rss2-nbsp-entity.xml"))
  }

  @Test(arguments: files)
  func bothScansRepairAlike(path: String) throws {
    let bytes = try Fixtures.bytes(path)
    let scanned = EntityRepair.replacingHTMLEntities(in: bytes)
    let full = EntityRepair.replacingHTMLEntities(in: bytes, byteByByte: true)
    #expect(scanned?.bytes == full?.bytes)
    #expect(scanned?.count == full?.count)
  }

  @Test(arguments: [
    "<a>caf&eacute;</a>", "<a><![CDATA[&nbsp;]]></a>", "<a><!-- &nbsp; --></a>",
    "<a><![CDATA[&nbsp;]]>&nbsp;</a>", "<a>&nbsp</a>", "<a>&#160;&#xA0;</a>", "<a>&amp;&lt;</a>",
    "<a>&lt", "&", "&amp", "<a>&unknownname;</a>", "<a>&apos;&quot;&gt;&nbsp;</a>",
    "<![CDATA[ never closed &nbsp;", "<!-- never closed &nbsp;", "<!DOCTYPE x>&nbsp;",
    "<!-- a --><![CDATA[ &nbsp; ]]>&nbsp;<!-- &eacute; -->&eacute;", "&nbsp;<!---->&nbsp;",
    "<![CDATA[<!--]]>&nbsp;-->&nbsp;", "<!-- <![CDATA[ -->&nbsp;]]>&nbsp;", "<!-->&nbsp;-->&copy;",
    "a&b&c&nbsp;&&;&;", "<a>&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;</a>", "",
  ])
  func bothScansAgreeWhereAPlaceOrAnEndDecides(text: String) {
    let bytes = Array(text.utf8)
    let scanned = EntityRepair.replacingHTMLEntities(in: bytes)
    let full = EntityRepair.replacingHTMLEntities(in: bytes, byteByByte: true)
    #expect(scanned?.bytes == full?.bytes)
    #expect(scanned?.count == full?.count)
  }

  @Test func xmlsOwnEntitiesAreToldByTheirBytes() {
    for (text, expected) in [
      ("&amp;", true), ("&lt;", true), ("&gt;", true), ("&quot;", true), ("&apos;", true),
      ("&amp", false), ("&lt", false), ("&ap;", false), ("&quote;", false), ("&", false),
      ("&nbsp;", false), ("x&gt;", false),
    ] {
      #expect(EntityRepair.isXMLEntity(Array(text.utf8), at: 0) == expected, "\(text)")
    }
    #expect(EntityRepair.isXMLEntity(Array("x&gt;".utf8), at: 1))
  }
}
