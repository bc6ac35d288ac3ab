/** The answers a record rule refuses with; the server turns them into the status and JSON body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? status));
  }
}

export const notFound = (what: string): HttpError => new HttpError(404, { message: `${what} not found.` });
export const unprocessable = (field: string, message: string): HttpError => new HttpError(422, { message, errors: { [field]: [message] } });
