import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../http-error.js';
import { readNodeBody } from './node-body.js';

/** A Node request on an unconnected socket, its body pushed by the test. */
const request = (): IncomingMessage => new IncomingMessage(new Socket());

describe('readNodeBody', () => {
  it('joins the chunks of a body, and takes a body of one chunk as it came', async () => {
    const many = request();
    const reading = readNodeBody(many, 7);
    many.push(Buffer.from('{"a":'));
    many.push(Buffer.from('1}'));
    many.push(null);
    expect((await reading)?.toString()).toBe('{"a":1}');
    const one = request();
    const chunk = Buffer.from('{}');
    const single = readNodeBody(one, 2);
    one.push(chunk);
    one.push(null);
    expect(await single).toBe(chunk);
  });

  it('reads out a whole body the client closed after sending, and refuses one cut short', async () => {
    const whole = request();
    const reading = readNodeBody(whole, 7);
    // Paused, as a stream whose last chunks were still buffered when the socket closed.
    whole.pause();
    whole.push(Buffer.from('{"a":'));
    whole.push(Buffer.from('1}'));
    whole.complete = true;
    whole.destroy();
    expect((await reading)?.toString()).toBe('{"a":1}');
    const cut = request();
    const refused = readNodeBody(cut, 7);
    cut.push(Buffer.from('{"a"'));
    cut.destroy();
    await expect(refused).rejects.toThrow(HttpError);
    await expect(refused).rejects.toThrow('the request body could not be read');
  });

  it('leaves a body already read from, and a stand-in object, to the Request', () => {
    const read = request();
    read.push(Buffer.from('{}'));
    read.read();
    expect(readNodeBody(read, 2)).toBeUndefined();
    const standIn = { socket: {} } as unknown as IncomingMessage;
    expect(readNodeBody(standIn, 2)).toBeUndefined();
  });

  it('leaves a request that closed before the read began to the Request (its close will not come again)', async () => {
    const closed = request();
    closed.push(Buffer.from('{"a"'));
    closed.destroy();
    await new Promise((done) => setImmediate(done));
    expect(closed.destroyed).toBe(true);
    expect(readNodeBody(closed, 7)).toBeUndefined();
    const ended = request();
    ended.on('data', () => undefined);
    ended.push(null);
    await new Promise((done) => ended.once('end', done));
    expect(readNodeBody(ended, 0)).toBeUndefined();
  });
});
