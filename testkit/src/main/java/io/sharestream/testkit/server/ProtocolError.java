package io.sharestream.testkit.server;

/** An error answered in the protocol's JSON form {@code {"errorCode": ..., "message": ...}}. */
final class ProtocolError extends RuntimeException {
  static final String NOT_FOUND = "RESOURCE_DOES_NOT_EXIST";
  static final String INVALID = "INVALID_PARAMETER_VALUE";
  static final String UNSUPPORTED = "UNSUPPORTED_OPERATION";
  static final String MALFORMED = "MALFORMED_REQUEST";
  static final String INTERNAL = "INTERNAL_ERROR";
  static final String PERMISSION_DENIED = "PERMISSION_DENIED";

  final int status;
  final String errorCode;

  ProtocolError(int status, String errorCode, String message) {
    super(message, null, false, false);
    this.status = status;
    this.errorCode = errorCode;
  }

  static ProtocolError notFound(String message) {
    return new ProtocolError(404, NOT_FOUND, message);
  }

  static ProtocolError permissionDenied(String message) {
    return new ProtocolError(403, PERMISSION_DENIED, message);
  }

  static ProtocolError invalid(String message) {
    return new ProtocolError(400, INVALID, message);
  }

  static ProtocolError malformed(String message) {
    return new ProtocolError(400, MALFORMED, message);
  }
}
