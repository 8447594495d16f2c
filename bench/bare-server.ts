// A bare node:http server answering every request with the same bytes the reference server sends
// for GET /v1/pets?limit=1: the yardstick for the reference server's throughput.
import http from 'node:http';

const [port, status, headersJson, body] = process.argv.slice(2) as [string, string, string, string];
const headers = JSON.parse(headersJson) as Record<string, string>;
http
  .createServer((_req, res) => {
    res.writeHead(Number(status), headers);
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
