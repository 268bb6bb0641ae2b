internal import ArgumentParser
internal import ClarissaCore
internal import Foundation
internal import Photos

/// `clarissa photos`: what clarissa computes from photos, on files, to check it by hand.
struct PhotosCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "photos",
    abstract: "Photo fingerprints: the difference hash clarissa keeps per photo.",
    discussion: """
      A photo's fingerprint is a 64-bit difference hash (dhash): the picture made grey, \
      shrunk to 9 x 8 pixels, and one bit per pair of neighbours in a row, set when the \
      left one is darker. Re-encoding, resizing or a small watermark move it by a few bits; \
      unrelated photos differ in about 32 of the 64.

        clarissa photos hash photo.jpg other.png     # 16 hex digits and the file name
      """,
    subcommands: [PhotosHash.self]
  )
}

/// `clarissa photos hash FILE...`: each file's difference hash, as `sha256sum` prints digests.
struct PhotosHash: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hash",
    abstract: "Print each picture's difference hash (16 hex digits) beside its name.",
    discussion: """
      The hash is the one of the Python imagehash package's dhash(image) (hash_size 8: \
      Pillow's grey conversion, Lanczos resize to 9 x 8, left < right per row), printed as \
      str() prints it, so it can be checked with:

        python3 -c 'import sys, imagehash; from PIL import Image; \\
          print(imagehash.dhash(Image.open(sys.argv[1])))' photo.jpg

      PNG and WebP give the same hash; a JPEG is decoded at a reduced DCT scale (1/8 for \
      photos of 512 px and more) and lands within a few bits of it. JPEG, PNG and WebP are \
      told apart by their first bytes. Files over 8 MiB or 40,000,000 pixels (read from the \
      header), truncated or animated ones are refused: 'clarissa: FILE: reason' on standard \
      error; the other files are still hashed, and the exit status is 1.

        clarissa photos hash *.jpg
        clarissa photos hash a.jpg b.jpg | awk '{print $1}'
      """)

  @Argument(help: "JPEG, PNG or WebP files.")
  var files: [String]

  func run() throws {
    var failed = false
    for file in files {
      let name = SafeText.line(file)
      let data: Data
      do {
        data = try readBounded(file)
      } catch {
        Terminal.error("clarissa: \(name): \(error)\n")
        failed = true
        continue
      }
      do {
        let fingerprint = try PhotoHashing.fingerprint(of: data)
        Terminal.output("\(fingerprint.hex)  \(name)\n")
      } catch {
        Terminal.error("clarissa: \(name): \(error)\n")
        failed = true
      }
    }
    if failed { throw ExitStatus.failure.exitCode }
  }

  /// The file's bytes, reading at most one byte past the limit (so a huge file is not read whole
  /// to be refused).
  private func readBounded(_ file: String) throws(FileProblem) -> Data {
    guard let handle = FileHandle(forReadingAtPath: file) else {
      throw FileProblem(
        FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file")
    }
    defer { try? handle.close() }
    do {
      return try handle.read(upToCount: PhotoLimits.standard.maxBytes + 1) ?? Data()
    } catch {
      throw FileProblem("cannot be read (a folder?)")
    }
  }
}

/// Why a file named on the command line could not be read.
private struct FileProblem: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
