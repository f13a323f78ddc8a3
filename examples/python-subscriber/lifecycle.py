"""Each document's lifecycle so far, from its events (pure: no Kafka, no I/O)."""


def step_of(event_type: str, data: dict) -> str:
    """One step's word, with what a reader wants to know of it."""
    if event_type == "DocumentUploaded":
        return "uploaded"
    if event_type == "DocumentParsingStarted":
        attempt = data["attempt"]
        return "parsing" if attempt == 1 else f"parsing (attempt {attempt})"
    if event_type == "DocumentParsed":
        count = data["chunk_count"]
        return f"parsed ({count} chunk{'' if count == 1 else 's'})"
    if event_type == "DocumentIndexed":
        return "ready"
    if event_type == "DocumentFailed":
        return f"failed ({data['stage']}: {data['code']})"
    if event_type == "DocumentDeleted":
        return "deleted"
    if event_type == "DocumentMetadataUpdated":
        return "metadata updated"
    # A type added to the topic later still shows, by its name.
    return event_type


class Lifecycles:
    """The steps of every document seen, in the order of its stream (one partition keeps it)."""

    def __init__(self):
        self._steps: dict = {}

    def record(self, document_id: str, event_type: str, data: dict) -> str:
        """Adds the event's step and answers the document's line: `doc_… uploaded → parsing → …`."""
        steps = self._steps.setdefault(document_id, [])
        steps.append(step_of(event_type, data))
        return f"{document_id} {' → '.join(steps)}"
