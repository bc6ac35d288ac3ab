/** Channels (API v1: Channels): read only. */
import { getList } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

export const channelEndpoints = {
  listChannels(this: ApiSelf): Promise<T.ApiChannel[]> {
    return getList(this, "/channels", "channels");
  },
  getChannel(this: ApiSelf, id: number): Promise<T.ApiChannel> {
    return this.get(`/channels/${id}`, "channel");
  },
};
