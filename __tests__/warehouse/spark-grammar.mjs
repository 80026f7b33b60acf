/**
 * Spark SQL's grammar on statements, for the tests (__tests__/warehouse/sql-grammars.ts): reads a JSON array of SQL
 * texts on stdin and prints a JSON array with each text's syntax errors (dt-sql-parser's SparkSQL, the ANTLR grammar
 * of Apache Spark's own SqlBaseParser.g4). Run as `node --import ./extensionless-esm.mjs spark-grammar.mjs`.
 */
import process from 'node:process'
import { SparkSQL } from 'dt-sql-parser'

let input = ''
for await (const chunk of process.stdin) input += chunk
const parser = new SparkSQL()
const texts = JSON.parse(input)
process.stdout.write(JSON.stringify(texts.map((text) => parser.validate(text))))
