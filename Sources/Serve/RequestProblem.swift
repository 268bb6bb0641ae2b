internal import WebServer

/// A request refused or failed, with what to tell the person or program.
struct RequestProblem: Error {
  var status: Int
  var message: String

  init(_ status: Int, _ message: String) {
    self.status = status
    self.message = message
  }

  func response(json: Bool) -> WebResponse {
    if json { return WebApp.json(["error": message, "status": status], status: status) }
    var response = Pages.problem(status: status, message: message)
    response.status = status
    return response
  }
}
