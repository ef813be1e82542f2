// validate.mjs: the independent validators of the schematest module.
// It reads one job, a JSON object, on standard input, and writes its
// results as a JSON object on standard output; it reads no file and opens
// no connection.
//
//   {"schemas": {"name": schema, …},   JSON Schema 2020-12 documents, compiled by ajv
//                                       (strict mode, union types allowed, formats asserted;
//                                       discriminator, a keyword of OpenAPI 3.1's dialect that
//                                       components use, known as an annotation: each variant's
//                                       const key is what decides a oneOf)
//    "checks": [["name", instance], …], each instance validated against the schema named
//    "openapi": {"name": document, …}}  OpenAPI documents, by @seriousme/openapi-schema-validator
//
// gives
//
//   {"compile": {"name": "" or why it does not compile, …},
//    "results": [null or why the instance is invalid, …],   one per check
//    "openapi": {"name": "" or why the document is invalid, …}}
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Validator } from "@seriousme/openapi-schema-validator";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: true, allErrors: false });
addFormats(ajv);
ajv.addKeyword({ keyword: "discriminator", schemaType: "object" });

const out = { compile: {}, results: [], openapi: {} };
const compiled = {};
for (const [name, schema] of Object.entries(job.schemas || {})) {
  try {
    compiled[name] = ajv.compile(schema);
    out.compile[name] = "";
  } catch (e) {
    out.compile[name] = String(e && e.message || e);
  }
}
for (const [name, instance] of job.checks || []) {
  const validate = compiled[name];
  if (!validate) {
    out.results.push("no compiled schema " + name);
    continue;
  }
  if (validate(instance)) {
    out.results.push(null);
  } else {
    const e = validate.errors[0];
    out.results.push(`${e.instancePath || "/"} ${e.message} (${e.schemaPath})`);
  }
}
for (const [name, doc] of Object.entries(job.openapi || {})) {
  const v = new Validator();
  const res = await v.validate(doc);
  out.openapi[name] = res.valid ? "" : JSON.stringify(res.errors);
}
process.stdout.write(JSON.stringify(out));
