#!/usr/bin/env python3
"""A downstream system subscribing to KBQA's documents topic from outside Node.

Reads kbqa.document as its own consumer group, checks every message against the JSON Schemas of
schemas/json (the event type from the message's header), and prints each document's lifecycle
on stdout, one line per event:

    doc_9f… uploaded → parsing → parsed (2 chunks) → ready

A message that fails the check is reported on stderr and counted, never fatal. At the end (a
limit reached, or SIGINT/SIGTERM) a summary goes to stderr; the exit status is 1 when any message
failed the check, else 0.
"""

import argparse
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException

from contract import Contract
from lifecycle import Lifecycles

DEFAULT_SCHEMAS = Path(__file__).resolve().parents[2] / "schemas" / "json"
POLL_SECONDS = 0.5


@dataclass
class Counts:
    messages: int = 0
    events: int = 0
    duplicates: int = 0
    invalid: int = 0

    def summary(self) -> str:
        return f"summary: {self.messages} messages, {self.events} events, {self.duplicates} duplicates, {self.invalid} invalid"


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brokers", default=os.environ.get("KAFKA_BROKERS", "127.0.0.1:9092"), help="host:port,… (default: $KAFKA_BROKERS)")
    parser.add_argument("--group", default="python-subscriber", help="this subscriber's consumer group (never one of the service's kbqa.*)")
    parser.add_argument("--from-beginning", action="store_true", help="read every partition from its first message, whatever the group committed")
    parser.add_argument("--max-messages", type=int, help="stop after this many messages")
    parser.add_argument("--timeout", type=float, help="stop after this many seconds")
    parser.add_argument("--schemas", type=Path, default=DEFAULT_SCHEMAS, help="the generated JSON Schemas (default: the repository's schemas/json)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    contract = Contract(args.schemas)
    topic = contract.topic_of_category("document")
    consumer = Consumer(
        {
            "bootstrap.servers": args.brokers,
            "group.id": args.group,
            "auto.offset.reset": "earliest" if args.from_beginning else "latest",
            # At least once: an offset is stored only after its message was handled, and the
            # periodic commit (and close) commits what was stored.
            "enable.auto.offset.store": False,
            "error_cb": lambda error: print(f"kafka: {error}", file=sys.stderr, flush=True),
        }
    )
    stop = install_stop_signals()
    consumer.subscribe([topic], on_assign=on_assign(args.from_beginning))
    counts = Counts()
    try:
        consume(consumer, contract, counts, until=stopping_rule(args, counts, stop))
    finally:
        consumer.close()
        print(counts.summary(), file=sys.stderr, flush=True)
    return 1 if counts.invalid else 0


def consume(consumer, contract: Contract, counts: Counts, until) -> None:
    lifecycles = Lifecycles()
    seen_ids = set()  # the contract's advice: deduplicate redeliveries by event id
    while not until():
        message = consumer.poll(POLL_SECONDS)
        if message is None:
            continue
        if message.error():
            if message.error().fatal():
                raise KafkaException(message.error())
            print(f"kafka: {message.error()}", file=sys.stderr, flush=True)
            continue
        counts.messages += 1
        checked = contract.check(decoded(message.key()), headers_of(message), message.value())
        if checked.problems:
            counts.invalid += 1
            where = f"{message.topic()}[{message.partition()}]@{message.offset()}"
            print(f"invalid {where} key={decoded(message.key())}: {'; '.join(checked.problems)}", file=sys.stderr, flush=True)
        elif checked.event["id"] in seen_ids:
            counts.duplicates += 1
        else:
            seen_ids.add(checked.event["id"])
            counts.events += 1
            event = checked.event
            print(lifecycles.record(event["data"].get("document_id", event["streamId"]), event["type"], event["data"]))
        try:
            consumer.store_offsets(message=message)
        except KafkaException as error:
            # Its partition went to another member meanwhile: that member reads it again (at least once).
            print(f"kafka: offset not stored: {error}", file=sys.stderr, flush=True)


def on_assign(from_beginning: bool):
    """With --from-beginning, each partition starts at its first message the first time it is ours."""
    rewound = set()

    def assign(consumer, partitions):
        for partition in partitions:
            if from_beginning and (partition.topic, partition.partition) not in rewound:
                partition.offset = OFFSET_BEGINNING
                rewound.add((partition.topic, partition.partition))
        consumer.assign(partitions)
        print(f"assigned {', '.join(f'{p.topic}[{p.partition}]' for p in partitions)}", file=sys.stderr, flush=True)

    return assign


def stopping_rule(args, counts: Counts, stop: dict):
    deadline = time.monotonic() + args.timeout if args.timeout is not None else None
    return lambda: (
        stop["requested"]
        or (deadline is not None and time.monotonic() >= deadline)
        or (args.max_messages is not None and counts.messages >= args.max_messages)
    )


def install_stop_signals() -> dict:
    """SIGINT and SIGTERM end the loop after the message in hand, so the group is left cleanly."""
    stop = {"requested": False}

    def request(_signum, _frame):
        stop["requested"] = True

    signal.signal(signal.SIGINT, request)
    signal.signal(signal.SIGTERM, request)
    return stop


def headers_of(message) -> dict:
    headers: dict = {}
    for name, raw in message.headers() or []:
        headers.setdefault(name, []).append(decoded(raw))
    return headers


def decoded(raw):
    return raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw


if __name__ == "__main__":
    sys.exit(main())
