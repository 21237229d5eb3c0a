/**
 * The server started as a program runs in production mode unless NODE_ENV says otherwise: Colyseus then keeps quiet
 * about failed reconnections (development mode prints a line for each, with advice) and words its refusals for
 * clients rather than for developers. Imported first by server/main.ts, before Colyseus is loaded.
 */
process.env.NODE_ENV ||= "production";
