import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import Channels
@testable import ClarissaEngine

/// A listing's link and photos reach a channel only as absolute `http(s)` addresses: every
/// kind's sender (``ChannelRegistry/all``, each against a loopback receiver or a real program) is
/// given a listing whose link and photo are unsafe, beside one whose link and photo are fine;
/// nothing of the unsafe addresses is in any request, header, button, attachment or program
/// input, and the listing itself is still sent (without a link).
@Suite(.serialized) struct UnsafeAddressTests {
  static let search = Search(name: "chairs", site: "craigslist")

  /// Unsafe addresses, each with a mark (letters and digits: no encoding changes it) that
  /// only it carries.
  static let unsafe: [(address: String, mark: String)] = [
    ("javascript:alert(document.cookie)//evil7k", "evil7k"),
    ("data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+data7k", "data7k"),
    ("file:///etc/passwd#file7k", "file7k"),
    ("/relative/photo-rel7k.jpg", "rel7k"),
    ("//host.example/proto7k.jpg", "proto7k"),
    ("https:///nohost7k", "nohost7k"),
    ("https://ok.example/bell\u{7}ctl7k", "ctl7k"),
    ("https://ok.example/with space7k", "space7k"),
    ("https://ok.example/\u{202E}bidi7k", "bidi7k"),
    ("https://evil.example\\@ok.example/slash7k", "slash7k"),
  ]

  static func listings(_ address: String) -> [Listing] {
    [
      Listing(
        id: "bad", site: "craigslist", url: address, title: "Unsafe chair", price: 10,
        currency: "USD", imageURLs: [address]),
      Listing(
        id: "good", site: "craigslist", url: "https://ok.example/fine42", title: "Fine chair",
        price: 20, currency: "USD", imageURLs: ["https://img.example/photo42.jpg"]),
    ]
  }

  /// Every kind that sends, as a channel aimed at `receiver`; programs write what they are
  /// given under `folder`.
  static func channels(_ receiver: LoopbackServer, folder: URL) throws -> [Channel] {
    let script = folder.appendingPathComponent("program.sh")
    let out = folder.appendingPathComponent("program.out").path
    try "#!/bin/sh\n{ env; cat; } >> \(out)\n".write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let sendmail = folder.appendingPathComponent("sendmail")
    try FileManager.default.copyItem(at: script, to: sendmail)
    let host = "127.0.0.1:\(receiver.port)"
    return ChannelRegistry.all.compactMap { kind -> Channel? in
      switch kind.kind {
      case .stdout, .smtp, .apprise: return nil  // no sender, a mail server, an installed tool
      case .exec: return Channel(name: "exec", kind: .exec, url: "exec:\(script.path)")
      default:
        return kind.sample(secret: "s3cret", host: host).map {
          Channel(name: kind.kind.rawValue, kind: kind.kind, url: $0)
        }
      }
    }
  }

  @Test(arguments: Self.unsafe.map(\.address))
  func noUnsafeAddressReachesAnyChannel(address: String) async throws {
    let mark = try #require(Self.unsafe.first { $0.address == address }?.mark)
    let answer =
      #"{"ok":true,"status":1,"request":"r","room_id":"!room:example.org","event_id":"$e","id":1}"#
    let receiver = try LoopbackServer { _, _ in
      .text(answer, headers: ["Content-Type": "application/json"])
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "unsafe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let channels = try Self.channels(receiver, folder: folder)
    #expect(channels.count >= 9, "every sending kind but smtp and apprise")
    for channel in channels {
      let sender = ChannelFactory.sender(
        for: channel, fetcher: ChannelTests.fetcher(),
        environment: ["PATH": folder.path + ":/usr/bin:/bin"], baseDirectory: "/",
        endpoint: receiver.base + "/\(channel.name)")
      let received = Received()
      try await sender.deliver(Self.listings(address), search: Self.search) { received.add($0) }
      #expect(received.ids == [["bad"], ["good"]], "\(channel.name): both listings sent")
    }
    let program = (try? String(contentsOfFile: folder.path + "/program.out", encoding: .utf8)) ?? ""
    let sent = receiver.requests.map { request in
      ([request.path, request.text] + request.headers.map { "\($0.key): \($0.value)" })
        .joined(separator: "\n")
    }
    #expect(!sent.isEmpty && program.contains("Unsafe chair"))
    for text in sent + [program] {
      #expect(!text.contains(mark), "the unsafe address stays out: \(text.prefix(300))")
    }
    for channel in channels where ![.exec, .mailto].contains(channel.kind) {
      #expect(
        receiver.requests.contains {
          $0.path.hasPrefix("/\(channel.name)") && $0.text.contains("fine42")
        },
        "\(channel.name): the safe link still goes")
    }
    #expect(program.contains("fine42") && program.contains("photo42"), "safe addresses still go")
  }

  @Test func ntfyAttachesOnlyAWebPhotoAndClicksOnlyAWebLink() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    let channel = Channel(name: "n", kind: .ntfy, url: "ntfy://127.0.0.1:\(receiver.port)/deals")
    var listings = Self.listings("javascript:alert(1)")
    listings[0].imageURLs = ["data:image/png;base64,AAAA", "https://img.example/second.jpg"]
    try await ChannelTests.sender(channel).deliver(listings, search: Self.search)
    let requests = receiver.requests
    try #require(requests.count == 2)
    #expect(requests[0].headers["click"] == nil)
    #expect(requests[0].headers["attach"] == nil, "no link: the message is about no listing")
    #expect(!requests[0].text.contains("javascript"))
    #expect(requests[1].headers["click"] == "https://ok.example/fine42")
    #expect(requests[1].headers["attach"] == "https://img.example/photo42.jpg")
  }

  @Test(arguments: [
    ("https://ok.example/a", true), ("HTTP://OK.EXAMPLE/a", true),
    ("http://ok.example:8080/ä?q=1#x", true), ("javascript:alert(1)", false),
    ("JavaScript:alert(1)", false), ("data:text/html,x", false), ("file:///etc/passwd", false),
    ("ftp://ok.example/a", false), ("relative/a.jpg", false), ("/a.jpg", false),
    ("//ok.example/a", false), ("https://", false), ("https:///a", false),
    ("https://ok.example/a\nb", false), ("https://ok.example/a\u{0}", false),
    ("https://ok.example/a b", false), ("https://ok.example/\u{00A0}", false),
    ("https://ok.example/a\\b", false), ("https://ok.example/?a=1|b>c", true), ("", false),
  ])
  func whatAWebAddressIs(address: String, web: Bool) {
    #expect(ChannelText.isWeb(address) == web)
  }
}

extension UnsafeAddressTests {
  @Test func aDigestLineWithoutALinkEndsWithoutABlankLine() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    var channel = Channel(name: "n", kind: .ntfy, url: "ntfy://127.0.0.1:\(receiver.port)/deals")
    channel.grouping = .digest
    try await ChannelTests.sender(channel).deliver(
      Self.listings("javascript:alert(1)"), search: Self.search)
    let body = try #require(receiver.requests.first?.text)
    #expect(body.contains("https://ok.example/fine42"))
    #expect(!body.contains("javascript"))
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { !$0.allSatisfy(\.isWhitespace) }, "\(lines)")
  }
}
