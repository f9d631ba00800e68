// The WebSocket link to a room (protocol v1): join or resume with the stored token,
// reconnect with back-off after a drop, remember which command each reply answers.

const BACKOFF = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 10]; // seconds; then 10 s, with some jitter
const PING_EVERY = 15000;
const SILENT_LIMIT = 40000;

export const tokenKey = (room) => `shengji:token:${room}`;
export const hostKey = (room) => `shengji:host:${room}`;

function store(kind) {
  try { return kind === "session" ? window.sessionStorage : window.localStorage; } catch (_) { return null; }
}

export function getSaved(key) {
  for (const s of [store("local"), store("session")]) {
    const v = s && s.getItem(key);
    if (v) return v;
  }
  return null;
}

export function save(key, value) {
  for (const s of [store("local"), store("session")]) {
    if (!s) continue;
    if (value === null) s.removeItem(key); else s.setItem(key, value);
  }
}

export class Link {
  // handlers: state(msg), chat(lines), ack(msg, req), error(msg, req), status(status, info)
  constructor(roomId, handlers) {
    this.roomId = roomId;
    this.h = handlers;
    this.ws = null;
    this.rev = 0;
    this.n = 0;
    this.pending = new Map();
    this.status = "idle";
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastHeard = 0;
    this.joinCmd = null;
    this.closed = false;
    this.joined = false;
    this.onOnline = () => { if (this.status === "lost") this.reconnectNow(); };
    window.addEventListener("online", this.onOnline);
  }

  get token() { return getSaved(tokenKey(this.roomId)); }

  // First join (name, spectate, host_key) or a resume with the stored token.
  start(join) {
    this.joinCmd = join;
    this.open();
  }

  open() {
    clearTimeout(this.retryTimer);
    this.setStatus(this.attempt ? "retry" : "connecting");
    const proto = location.protocol === "https:" ? "wss" : "ws";
    let ws;
    try {
      ws = new WebSocket(`${proto}://${location.host}/ws/${this.roomId}`);
    } catch (_) { this.lost(); return; }
    this.ws = ws;
    this.joined = false;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      const token = this.token;
      const join = token ? { type: "join", token } : this.joinCmd;
      if (join) this.send(join, { force: true });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.heartbeat(), PING_EVERY);
    };
    ws.onmessage = (ev) => {
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      this.joined = false;
      if (this.closed || ev.code === 4404 || this.status === "gone") return;
      this.lost();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== 1) return;
    if (Date.now() - this.lastHeard > SILENT_LIMIT) { this.ws.close(); return; }
    this.send({ type: "ping" }, { force: true });
  }

  lost() {
    const delay = (BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)] * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    const until = Date.now() + delay * 1000;
    this.setStatus("lost", { until });
    this.retryTimer = setTimeout(() => this.open(), delay * 1000);
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    this.open();
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  setStatus(status, info = {}) {
    this.status = status;
    if (this.h.status) this.h.status(status, info);
  }

  get ready() { return !!this.ws && this.ws.readyState === 1 && this.joined; }

  // Send a command; returns its request id, or null when not connected.
  send(cmd, { force = false } = {}) {
    if (!this.ws || this.ws.readyState !== 1 || (!force && !this.joined)) return null;
    const id = `c${Date.now().toString(36)}${(this.n++).toString(36)}`;
    this.pending.set(id, cmd);
    if (this.pending.size > 200) this.pending.delete(this.pending.keys().next().value);
    this.ws.send(JSON.stringify({ v: 1, id, rev: this.rev, ...cmd }));
    return id;
  }

  receive(msg) {
    const req = msg.id ? this.pending.get(msg.id) : undefined;
    if (msg.id) this.pending.delete(msg.id);
    if (msg.type === "state") {
      this.rev = msg.rev;
      this.h.state(msg);
    } else if (msg.type === "chat") {
      this.h.chat(msg.lines || []);
    } else if (msg.type === "notice") {
      if (this.h.notice) this.h.notice(msg);
    } else if (msg.type === "ack") {
      if (typeof msg.rev === "number" && msg.rev > this.rev && (!req || req.type !== "ping")) this.rev = msg.rev;
      if (req && req.type === "join") {
        this.joined = true;
        this.attempt = 0;
        if (msg.token) save(tokenKey(this.roomId), msg.token);
        if (msg.host) save(hostKey(this.roomId), null);
        this.setStatus("open");
      }
      this.h.ack(msg, req);
    } else if (msg.type === "error") {
      if (msg.code === "NO_ROOM") { this.setStatus("gone"); this.closed = true; }
      if (req && req.type === "join") {
        if (msg.code === "BAD_TOKEN") save(tokenKey(this.roomId), null);
        if (msg.code === "ALREADY_JOINED") { this.joined = true; this.setStatus("open"); }
      }
      this.h.error(msg, req);
    }
  }
}
