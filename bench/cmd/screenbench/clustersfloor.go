package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"
)

// tableAccept asks for the server-side Table of a list, the form kscope's tables read.
const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io"

// tableGet times one whole GET of the namespace's pods (namespace "": every namespace's) as a Table without
// objects (includeObject=None, no paging), from the request to the last byte of the answer, and checks it
// holds want rows (want < 0: any number). It returns the time and the rows.
func tableGet(ctx context.Context, client kubernetes.Interface, namespace string, want int) (time.Duration, int, error) {
	start := time.Now()
	body, err := client.CoreV1().RESTClient().Get().Namespace(namespace).Resource("pods").
		Param("includeObject", "None").SetHeader("Accept", tableAccept).DoRaw(ctx)
	took := time.Since(start)
	if err != nil {
		return 0, 0, err
	}
	var table struct {
		Kind string            `json:"kind"`
		Rows []json.RawMessage `json:"rows"`
	}
	if err := json.Unmarshal(body, &table); err != nil {
		return 0, 0, fmt.Errorf("decode the table: %w", err)
	}
	if table.Kind != "Table" || (want >= 0 && len(table.Rows) != want) {
		return 0, 0, fmt.Errorf("got a %s of %d rows, want a Table of %d", table.Kind, len(table.Rows), want)
	}
	return took, len(table.Rows), nil
}

// floors measures the server's floor of round r: a Table GET per cluster in turn, then one to every cluster
// at once (until the last answered). A failed GET is -1 and its error is kept.
func (cb *clusterBench) floors(r *ClusterRound) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r.FloorS = map[string]float64{}
	for _, name := range cb.contexts {
		took, _, err := tableGet(ctx, cb.clients[name], cb.b.namespace, cb.b.pods)
		r.FloorS[name] = took.Seconds()
		if err != nil {
			r.FloorS[name] = -1
			r.FloorErrors = append(r.FloorErrors, fmt.Sprintf("%s: %s", name, err))
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	start := time.Now()
	failed := false
	for _, name := range cb.contexts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := tableGet(ctx, cb.clients[name], cb.b.namespace, cb.b.pods); err != nil {
				mu.Lock()
				failed = true
				r.FloorErrors = append(r.FloorErrors, fmt.Sprintf("all at once, %s: %s", name, err))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	r.FloorAllS = time.Since(start).Seconds()
	if failed {
		r.FloorAllS = -1
	}
}

// metadataListAccept asks for a list's objects' metadata only, in protobuf: with the Table without objects,
// what a table of several namespaces needs (the Table's rows carry no namespace).
const metadataListAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"

// pairGet times the two whole GETs of the namespace's pods (namespace "": every namespace's) that a table of
// several namespaces needs, sent at once: the Table without objects and the metadata list in protobuf, from
// the requests to the last byte of the later answer.
func pairGet(ctx context.Context, client kubernetes.Interface, namespace string) (time.Duration, error) {
	start := time.Now()
	metaDone := make(chan error, 1)
	go func() {
		body, err := client.CoreV1().RESTClient().Get().Namespace(namespace).Resource("pods").
			SetHeader("Accept", metadataListAccept).DoRaw(ctx)
		if err == nil && len(body) == 0 {
			err = fmt.Errorf("an empty metadata list")
		}
		metaDone <- err
	}()
	_, _, err := tableGet(ctx, client, namespace, -1)
	if merr := <-metaDone; err == nil {
		err = merr
	}
	return time.Since(start), err
}
